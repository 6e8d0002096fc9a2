// The one way the console builds its page: elements from createElement, text from text nodes. No markup is ever
// parsed from a string, so whatever an API answer holds (an applicant's answer, a note) is shown as text.

/** @typedef {Node | string | number | null | undefined | false} Child */
/** @typedef {string | number | boolean | null | undefined | ((event: Event) => void)} PropValue */

/**
 * An element with attributes and children. `on<event>` props are listeners; `true` sets a boolean attribute,
 * `false`, null and undefined leave it out; strings and numbers become attribute values; string children become
 * text nodes.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, PropValue>} [props]
 * @param {...(Child | Child[])} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (value === true) element.setAttribute(name, '');
    else if (value !== false && value !== null && value !== undefined) element.setAttribute(name, String(value));
  }
  append(element, children);
  return element;
}

/**
 * @param {Element} parent
 * @param {(Child | Child[])[]} children
 */
function append(parent, children) {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

/**
 * Replaces an element's children.
 * @param {Element} parent
 * @param {...(Child | Child[])} children
 */
export function replace(parent, ...children) {
  parent.replaceChildren();
  append(parent, children);
}

let ids = 0;
/** A fresh id for tying a label or a description to its control. */
export function uid(prefix = 'c') {
  ids += 1;
  return `${prefix}-${ids}`;
}

/**
 * A labelled control: `<div class="field"><label for>…</label>control</div>`.
 * @param {string} label
 * @param {HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement} control
 * @param {string} [hint]
 */
export function field(label, control, hint) {
  if (!control.id) control.id = uid('field');
  const hintId = hint ? uid('hint') : undefined;
  if (hintId) control.setAttribute('aria-describedby', hintId);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hint ? h('p', { class: 'hint', id: hintId }, hint) : null);
}

/**
 * A `<select>` of options (`[value, label]`), the given one chosen.
 * @param {string} name
 * @param {readonly (readonly [string, string])[]} options
 * @param {string} selected
 */
export function select(name, options, selected) {
  return h(
    'select',
    { name },
    options.map(([value, label]) => h('option', { value, selected: value === selected }, label)),
  );
}

/**
 * An instant as `<time>`, in the reader's locale and time zone.
 * @param {string | null} iso
 */
export function time(iso) {
  if (iso === null) return h('span', { class: 'muted' }, '—');
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return h('time', { datetime: iso }, text);
}

/**
 * A description list of `[term, value]` rows.
 * @param {readonly (readonly [string, Child | Child[]])[]} rows
 * @param {string} [className]
 */
export function details(rows, className = 'facts') {
  return h('dl', { class: className }, rows.map(([term, value]) => h('div', {}, h('dt', {}, term), h('dd', {}, value))));
}
