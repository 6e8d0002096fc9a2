import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Layering (docs/ARCHITECTURE.md): app -> features -> http glue -> auth, idempotency, db. Each block below names
// what a part of src/ must not import; a file matched by several blocks gets all their restrictions, because
// ESLint keeps only the last `no-restricted-imports` options that match a file.
const FRAMEWORK = {
  regex: '^(fastify|@fastify/[^/]+)(/.*)?$',
  message: 'Only HTTP glue (src/http/, the route hook auth/route-auth.ts, routes.ts, app.ts) knows Fastify.',
};
const HTTP = {
  regex: '^(\\.\\./)+http(/|$)',
  message: 'Only routes and app.ts use src/http/; take what is needed as plain values.',
};
const FEATURES = {
  regex: '^(\\.\\./)+features(/|$)',
  message: 'The store, idempotency, auth, the journal and the outbox know no feature: a feature depends on them, never the reverse.',
};
const ROUTE_HOOK = {
  regex: '^(\\.\\./)+auth/route-auth(\\.[jt]s)?$',
  message: 'Only routes and app.ts use the route hook (auth/route-auth.ts); a service takes its caller as a plain value.',
};
// From a module of one feature: a module of another feature (`../<feature>/…`, `../../<feature>/…` from a feature
// inside a domain such as activity/, or `…/features/<feature>/…`) whose name contains `repository`
// (repository.ts, admin-repository.ts, …).
const OTHER_REPOSITORY = {
  regex: '^((\\.\\./){1,2}[^./][^/]*|(\\.\\./)+features/([^/]+/)?[^/]+)/[^/]*repository[^/]*$',
  message:
    "A feature's repository.ts is its own: read another feature through its service or its shared read module " +
    '(e.g. staff/profiles.ts, workspaces/workspace.ts).',
};

const MARKUP = 'The console builds elements and text nodes (dom.js); it never parses a string as markup or code.';
const CONSOLE_GLOBALS = Object.fromEntries(
  [
    'window', 'document', 'history', 'sessionStorage', 'fetch', 'crypto', 'URL', 'URLSearchParams', 'Node', 'Element',
    'HTMLElement', 'HTMLAnchorElement', 'HTMLButtonElement', 'HTMLInputElement', 'HTMLSelectElement',
    'HTMLTextAreaElement', 'Event',
  ].map((name) => [name, 'readonly']),
);

const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });

export const layering = [
  { files: ['src/features/**/*.ts'], rules: restrict(OTHER_REPOSITORY) },
  {
    files: ['src/features/**/service.ts', 'src/features/**/*-service.ts'],
    rules: restrict(OTHER_REPOSITORY, FRAMEWORK, HTTP, ROUTE_HOOK),
  },
  {
    files: [
      'src/db/**/*.ts',
      'src/idempotency/**/*.ts',
      'src/auth/keys/**/*.ts',
      'src/auth/members/**/*.ts',
      'src/auth/authentication.ts',
      'src/auth/dashboard-auth.ts',
      'src/journal/**/*.ts',
      'src/webhooks/**/*.ts',
    ],
    rules: restrict(FRAMEWORK, HTTP, FEATURES),
  },
  // The route hook is the one part of auth/ that knows Fastify.
  { files: ['src/auth/route-auth.ts'], rules: restrict(HTTP, FEATURES) },
  { files: ['src/provisioning/**/*.ts'], rules: restrict(FRAMEWORK, HTTP) },
  // The background thread runs the services its owners hand it (the store's checkpointer, the webhooks' sender),
  // loading each by the module its owner names: it serves no request and knows no feature.
  { files: ['src/background/**/*.ts'], rules: restrict(FRAMEWORK, HTTP, FEATURES) },
];

export default tseslint.config(
  // clients/typescript/examples/*.js: the examples compiled beside their source when the client is packed.
  { ignores: ['**/dist/', 'node_modules/', 'coverage/', 'data/', 'bench/results/', 'clients/typescript/examples/*.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  ...layering,
  {
    files: ['bin/**/*.js', 'bench/**/*.js', 'scripts/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
  {
    // The console's pages (docs/CONSOLE.md): browser modules that build the page from elements and text only, so an
    // API answer is never read as markup.
    files: ['src/console/**/*.js'],
    languageOptions: { globals: CONSOLE_GLOBALS },
    rules: {
      'no-restricted-properties': [
        'error',
        ...['innerHTML', 'outerHTML'].map((property) => ({ property, message: MARKUP })),
        ...['insertAdjacentHTML', 'write', 'writeln', 'createContextualFragment', 'parseFromString', 'setHTMLUnsafe'].map(
          (property) => ({ property, message: MARKUP }),
        ),
      ],
      'no-restricted-globals': ['error', { name: 'eval', message: MARKUP }, { name: 'Function', message: MARKUP }],
    },
  },
);
