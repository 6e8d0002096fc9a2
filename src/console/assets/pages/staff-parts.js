// Pieces the staff pages share: durations, a week's progress, instants in the workspace's time zone.
import { h } from '../dom.js';

/** @typedef {import('../staff-gateway.js').WeekFigures} WeekFigures */

/** @param {number} minutes */
export function minutesText(minutes) {
  if (minutes < 60) return `${minutes} min`;
  const rest = minutes % 60;
  return rest === 0 ? `${Math.floor(minutes / 60)} h` : `${Math.floor(minutes / 60)} h ${rest} min`;
}

/** @param {number} seconds */
export function elapsedText(seconds) {
  return minutesText(Math.floor(seconds / 60));
}

/**
 * A week's progress against its requirement: a bar and its figures as text.
 * @param {WeekFigures} week
 * @param {string} label the bar's accessible name
 */
export function weekProgress(week, label) {
  const met = week.progressPercent >= 100;
  return h(
    'div',
    { class: 'progress' },
    h('progress', { max: '100', value: String(Math.min(100, week.progressPercent)), 'aria-label': label }),
    h(
      'span',
      { class: met ? 'progress-text met' : 'progress-text' },
      `${minutesText(week.totalMinutes)} of ${minutesText(week.requiredMinutes)} (${week.progressPercent} %)`,
    ),
  );
}

/**
 * An instant as `<time>`, in the workspace's time zone (the zone periods are computed in), named after it.
 * @param {string} iso
 * @param {string} timeZone
 * @param {{ dateOnly?: boolean }} [options]
 */
export function zonedTime(iso, timeZone, options = {}) {
  const date = new Date(iso);
  const format = options.dateOnly ? { dateStyle: /** @type {const} */ ('medium') } : { dateStyle: /** @type {const} */ ('medium'), timeStyle: /** @type {const} */ ('short') };
  let text = iso;
  try {
    text = date.toLocaleString(undefined, { ...format, timeZone });
  } catch {
    text = date.toLocaleString(undefined, format);
  }
  return h('time', { datetime: iso }, text);
}

/**
 * When a shift under way started, as a clock time in the workspace's time zone, named (`<time>`): the time of day
 * alone when it started on the zone's day of `now`, else with its day.
 * @param {string} iso the shift's start
 * @param {string} timeZone
 * @param {number} now epoch ms
 */
export function startedAt(iso, timeZone, now) {
  const date = new Date(iso);
  const clock = { hour: /** @type {const} */ ('2-digit'), minute: /** @type {const} */ ('2-digit'), timeZoneName: /** @type {const} */ ('short') };
  let text = iso;
  try {
    const day = (/** @type {Date} */ d) => d.toLocaleDateString('en-CA', { timeZone });
    const today = day(date) === day(new Date(now));
    text = date.toLocaleString(undefined, today ? { ...clock, timeZone } : { ...clock, month: 'short', day: 'numeric', timeZone });
  } catch {
    text = date.toLocaleString();
  }
  return h('time', { datetime: iso }, text);
}

/**
 * "On duty" with how long, for whoever is on shift now; nothing otherwise.
 * @param {{ startedAt: string } | null} shift
 * @param {number} now epoch ms
 */
export function onDutyBadge(shift, now) {
  if (shift === null) return null;
  const seconds = Math.max(0, Math.floor((now - Date.parse(shift.startedAt)) / 1000));
  return h('span', { class: 'badge badge-on-duty' }, `On duty · ${elapsedText(seconds)}`);
}
