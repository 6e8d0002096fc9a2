/**
 * The slash commands, defined once: `discord register` sends them, `discord commands` prints them, the
 * interaction handler reads their names and options from them, and docs/DISCORD.md lists them (a test compares).
 */
import {
  ApplicationCommandOptionType,
  type RESTPostAPIChatInputApplicationCommandsJSONBody,
  type RESTPutAPIApplicationGuildCommandsJSONBody,
} from 'discord-api-types/v10';

export const COMMAND = {
  activity: 'activity',
  leaderboard: 'leaderboard',
  onduty: 'onduty',
  loa: 'loa',
  timeoff: 'timeoff',
  review: 'review',
} as const;

export const LOA = { request: 'request', list: 'list', cancel: 'cancel' } as const;
export const TIMEOFF = { pending: 'pending' } as const;
export const LEADERBOARD_PERIODS = ['week', 'month', 'all'] as const;
export type LeaderboardPeriod = (typeof LEADERBOARD_PERIODS)[number];

const DATE_HINT = 'YYYY-MM-DD';

export const COMMANDS: RESTPostAPIChatInputApplicationCommandsJSONBody[] = [
  { name: COMMAND.activity, description: 'Your minutes this week, the requirement after time off, and your shift under way' },
  {
    name: COMMAND.leaderboard,
    description: 'The top 10 staff members by time on shift (public)',
    options: [
      {
        type: ApplicationCommandOptionType.String,
        name: 'period',
        description: 'This week (default), this month, or all of the last 366 days',
        required: false,
        choices: LEADERBOARD_PERIODS.map((period) => ({ name: period, value: period })),
      },
    ],
  },
  { name: COMMAND.onduty, description: 'The staff members on shift now (public)' },
  {
    name: COMMAND.loa,
    description: 'Time off: ask for it, see your notices, cancel one',
    options: [
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: LOA.request,
        description: 'Ask for time off, from the start date to the end of the end date',
        options: [
          { type: ApplicationCommandOptionType.String, name: 'start', description: `First day off, ${DATE_HINT}`, required: true, min_length: 10, max_length: 10 },
          { type: ApplicationCommandOptionType.String, name: 'end', description: `Last day off, ${DATE_HINT}`, required: true, min_length: 10, max_length: 10 },
          { type: ApplicationCommandOptionType.String, name: 'reason', description: 'Why (only managers see it)', required: true, max_length: 500 },
        ],
      },
      { type: ApplicationCommandOptionType.Subcommand, name: LOA.list, description: 'Your time-off notices' },
      {
        type: ApplicationCommandOptionType.Subcommand,
        name: LOA.cancel,
        description: 'Cancel a notice, or come back early from one under way',
        options: [
          {
            type: ApplicationCommandOptionType.String,
            name: 'notice',
            description: 'The notice id, or its first 8 or more characters as /loa list shows them',
            required: true,
            min_length: 8,
            max_length: 36,
          },
        ],
      },
    ],
  },
  {
    name: COMMAND.timeoff,
    description: 'Time off for managers',
    options: [
      { type: ApplicationCommandOptionType.Subcommand, name: TIMEOFF.pending, description: 'Pending notices, with Approve and Deny' },
    ],
  },
  { name: COMMAND.review, description: 'A private sign-in link to the console' },
];

/** What `discord register` sends: every command a slash command (chat input). */
export const REGISTRATION: RESTPutAPIApplicationGuildCommandsJSONBody = COMMANDS;

/** The names `discord register` reports. */
export function commandNames(): string[] {
  return COMMANDS.map((command) => command.name);
}
