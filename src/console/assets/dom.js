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

/** The workspace's time zone, in which times are shown (set when a workspace is chosen); the reader's until then. */
let timeZone = /** @type {string | undefined} */ (undefined);

/** @param {string} zone an IANA time zone; one the browser does not know leaves the reader's */
export function showTimesIn(zone) {
  try {
    new Intl.DateTimeFormat(undefined, { timeZone: zone });
    timeZone = zone;
  } catch {
    timeZone = undefined;
  }
}

/**
 * An instant as `<time>`, in the reader's locale and the workspace's time zone (named).
 * @param {string | null} iso
 */
export function time(iso) {
  if (iso === null) return h('span', { class: 'muted' }, '—');
  const date = new Date(iso);
  const text = Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', timeZone, timeZoneName: 'short' });
  return h('time', { datetime: iso }, text);
}

/**
 * How long from one instant to another, in days, hours and minutes ("2 days 3 hours", "45 minutes").
 * @param {string} from
 * @param {string} to
 */
export function duration(from, to) {
  const minutes = Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));
  const parts = /** @type {[number, string][]} */ ([
    [Math.floor(minutes / 1440), 'day'],
    [Math.floor((minutes % 1440) / 60), 'hour'],
    [minutes % 60, 'minute'],
  ]);
  const said = parts.filter(([n]) => n > 0).map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`);
  return said.length === 0 ? '0 minutes' : said.join(' ');
}

/**
 * A description list of `[term, value]` rows.
 * @param {readonly (readonly [string, Child | Child[]])[]} rows
 * @param {string} [className]
 */
export function details(rows, className = 'facts') {
  return h('dl', { class: className }, rows.map(([term, value]) => h('div', {}, h('dt', {}, term), h('dd', {}, value))));
}
