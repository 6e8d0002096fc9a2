// The last weeks drawn as bars against each week's requirement: an SVG built from elements (never from markup),
// named and described for screen readers, with the same figures beside it as a table.
import { h, uid } from '../dom.js';
import { minutesText, zonedTime } from './staff-parts.js';

const SVG = 'http://www.w3.org/2000/svg';
const WIDTH = 320;
const HEIGHT = 160;
const TOP = 10;
const BOTTOM = 20;

/**
 * An SVG element with attributes and children.
 * @param {string} tag
 * @param {Record<string, string | number>} attributes
 * @param {...(Node | string)} children
 */
function svg(tag, attributes, ...children) {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  for (const child of children) element.append(typeof child === 'string' ? document.createTextNode(child) : child);
  return element;
}

/**
 * @param {{ start: string, totalMinutes: number, requiredMinutes: number }[]} weeks oldest first
 * @param {string} timeZone
 */
export function weekChart(weeks, timeZone) {
  const titleId = uid('chart-title');
  const descId = uid('chart-desc');
  const top = Math.max(60, ...weeks.map((w) => Math.max(w.totalMinutes, w.requiredMinutes)));
  const plot = HEIGHT - TOP - BOTTOM;
  const y = (/** @type {number} */ minutes) => TOP + plot - (minutes / top) * plot;
  const slot = WIDTH / Math.max(1, weeks.length);
  const met = weeks.filter((w) => w.totalMinutes >= w.requiredMinutes).length;
  const shapes = weeks.flatMap((week, i) => {
    const x = i * slot;
    const bar = svg('rect', {
      x: (x + slot * 0.2).toFixed(1),
      y: y(week.totalMinutes).toFixed(1),
      width: (slot * 0.6).toFixed(1),
      height: (TOP + plot - y(week.totalMinutes)).toFixed(1),
      class: week.totalMinutes >= week.requiredMinutes ? 'bar met' : 'bar',
    });
    const line = svg('line', {
      x1: (x + slot * 0.08).toFixed(1),
      x2: (x + slot * 0.92).toFixed(1),
      y1: y(week.requiredMinutes).toFixed(1),
      y2: y(week.requiredMinutes).toFixed(1),
      class: 'requirement',
    });
    const label = svg('text', { x: (x + slot / 2).toFixed(1), y: HEIGHT - 5, 'text-anchor': 'middle', class: 'axis' }, String(i - weeks.length + 1 || 'now'));
    return [bar, line, label];
  });
  const figure = svg(
    'svg',
    { viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-labelledby': titleId, 'aria-describedby': descId, class: 'week-chart', focusable: 'false' },
    svg('title', { id: titleId }, `Minutes worked in the last ${weeks.length} weeks against each week's requirement`),
    svg('desc', { id: descId }, `The requirement was met in ${met} of ${weeks.length} weeks; the table below gives every week's figures.`),
    svg('line', { x1: 0, x2: WIDTH, y1: TOP + plot, y2: TOP + plot, class: 'baseline' }),
    ...shapes,
  );
  return h(
    'figure',
    { class: 'chart' },
    figure,
    h(
      'figcaption',
      {},
      h('span', { class: 'key key-bar' }, 'Bars: minutes worked'),
      ' ',
      h('span', { class: 'key key-line' }, 'Lines: the requirement'),
    ),
    h(
      'div',
      { class: 'table-wrap', tabindex: '0', role: 'region', 'aria-label': 'The last weeks as figures' },
      h(
        'table',
        {},
        h('caption', {}, 'The last weeks, oldest first'),
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', { scope: 'col' }, 'Week of'),
            h('th', { scope: 'col', class: 'number' }, 'Worked'),
            h('th', { scope: 'col', class: 'number' }, 'Required'),
          ),
        ),
        h(
          'tbody',
          {},
          weeks.map((week) =>
            h(
              'tr',
              {},
              h('th', { scope: 'row' }, zonedTime(week.start, timeZone, { dateOnly: true })),
              h('td', { class: 'number' }, minutesText(week.totalMinutes)),
              h('td', { class: 'number' }, minutesText(week.requiredMinutes)),
            ),
          ),
        ),
      ),
    ),
  );
}
