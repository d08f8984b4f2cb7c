// ESLint (flat config), run by `npm test` right after the type check (`npm run lint`).
// It guards what the type checker cannot: module boundaries. A plugin reaches another plugin,
// the shared code (@rti/common) or an engine (server, console, ingest, metadata) only through
// that package's `exports`; engines never reach into a plugin. Formatting follows the
// repository's style through ESLint Stylistic (`npm run lint -- --fix` on your files); the
// rules below are the ones the code already keeps, so new code keeps them too.
// React screens keep the rules of hooks (eslint-plugin-react-hooks); server-side code keeps
// every promise awaited or handed on on purpose (type-aware no-floating-promises and
// no-misused-promises, over the one program of tsconfig.json).
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import tsParser from '@typescript-eslint/parser';
import stylistic from '@stylistic/eslint-plugin';
import tsPlugin from '@typescript-eslint/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';

const root = dirname(fileURLToPath(import.meta.url));

/** workspace folder → package name and the subpaths its `exports` names explicitly */
const units = new Map();
const byName = new Map();
for (const dir of ['metadata', 'server', 'console', 'ingest', 'seeds', 'common', ...readdirSync(join(root, 'plugins')).map((p) => `plugins/${p}`)]) {
  const file = join(root, dir, 'package.json');
  if (!existsSync(file)) continue;
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  const subpaths = new Set(
    Object.keys(pkg.exports ?? {})
      .filter((k) => k !== '.' && !k.includes('*'))
      .map((k) => k.slice(2)),
  );
  const unit = { dir, name: pkg.name, subpaths };
  units.set(dir, unit);
  byName.set(pkg.name, unit);
}

/** the workspace a repository path belongs to (plugins/<id>, common, server, …) or null (bench, scripts) */
function unitOf(path) {
  const parts = relative(root, path).split(sep);
  if (parts[0] === 'plugins') return parts.length > 2 ? `plugins/${parts[1]}` : null;
  return units.has(parts[0]) ? parts[0] : null;
}

const isTest = (path) => /[\\/](test|e2e)[\\/]|\.(test|e2e|spec)\.[cm]?[jt]sx?$/.test(path);

const boundaries = {
  meta: {
    type: 'problem',
    docs: { description: 'imports cross a workspace boundary only through package exports' },
    schema: [],
    messages: {
      relative: "'{{spec}}' reaches into {{target}} by relative path: import it from {{name}} (its package exports){{hint}}",
      deep: "'{{spec}}' is not among the exports of {{name}}: use a subpath its package.json exports names, or add one there on purpose",
      intoPlugin: "'{{spec}}': {{from}} must not depend on a plugin ({{target}}); plugins depend on engines, not the other way",
    },
  },
  create(context) {
    const file = context.filename;
    const from = unitOf(file);
    if (!from) return {};
    const fromPlugin = from.startsWith('plugins/') || from === 'common';
    const check = (node, spec) => {
      if (typeof spec !== 'string') return;
      if (spec.startsWith('.')) {
        const targetPath = resolve(dirname(file), spec);
        const target = unitOf(targetPath);
        if (!target || target === from) return;
        // tests may use the server's and ingest's test harness (test server, fixtures)
        if (isTest(file) && /^(server|ingest)[\\/]test[\\/]/.test(relative(root, targetPath))) return;
        if (target.startsWith('plugins/') && !from.startsWith('plugins/')) {
          context.report({ node, messageId: 'intoPlugin', data: { spec, from, target } });
          return;
        }
        // engines (and their tests) may share files among themselves; plugins may not
        if (!fromPlugin) return;
        const name = units.get(target)?.name ?? target;
        const hint = target === 'console' ? ' (@rti/console/plugin-api or /plugin-meta)' : '';
        context.report({ node, messageId: 'relative', data: { spec, target, name, hint } });
        return;
      }
      if (!fromPlugin) return;
      const deep = /^(@rti\/[a-z-]+)\/(.+)$/.exec(spec);
      if (!deep) return;
      const unit = byName.get(deep[1]);
      if (!unit || unit.dir === from) return;
      const sub = deep[2].replace(/\.(ts|tsx|js|mjs)$/, '');
      if (!unit.subpaths.has(sub)) context.report({ node, messageId: 'deep', data: { spec, name: unit.name } });
    };
    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};

/** enum values by number, with the camel-case words of each value's name (enums.json) */
const enumValues = new Map();
// metadata/enums.json and every plugin's metadata/enums.json (a module's own enums live in its folder)
const pluginMetadata = readdirSync(join(root, 'plugins'))
  .map((id) => join(root, 'plugins', id, 'metadata'))
  .filter((dir) => existsSync(dir));
const enumFiles = [join(root, 'metadata/enums.json'), ...pluginMetadata.map((dir) => join(dir, 'enums.json')).filter((f) => existsSync(f))];
for (const [name, items] of enumFiles.flatMap((f) => Object.entries(JSON.parse(readFileSync(f, 'utf8'))))) {
  for (const it of items) {
    if (typeof it.value !== 'number') continue;
    const key = it.label.split('.').pop();
    const list = enumValues.get(it.value) ?? [];
    list.push({
      ref: `Enums.${name}.${key}`,
      words: key
        .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
        .toLowerCase()
        .split('_'),
    });
    enumValues.set(it.value, list);
  }
}

/**
 * `const BIND_NEW = 10`, `DEVICE_OFFLINE = 20`: a constant whose name holds every word of an
 * enum value's name and whose number is that value re-types the enum; use the generated
 * `Enums` of @rti/metadata instead, so a changed enums.json cannot leave it stale.
 */
const noEnumLiterals = {
  meta: {
    type: 'problem',
    docs: { description: 'enum values come from the generated Enums, not re-typed numbers' },
    schema: [],
    messages: { literal: '{{name}} = {{value}} re-types {{refs}}: import { Enums } from @rti/metadata (or @rti/metadata/browser) and use it' },
  },
  create(context) {
    return {
      VariableDeclarator(node) {
        if (node.id.type !== 'Identifier' || !/^[A-Z][A-Z0-9_]*$/.test(node.id.name)) return;
        const init = node.init?.type === 'TSAsExpression' ? node.init.expression : node.init;
        if (init?.type !== 'Literal' || typeof init.value !== 'number') return;
        const words = new Set(node.id.name.toLowerCase().split('_'));
        // a one-letter value name (organizationLevel.a) is too weak a hint on its own
        const hits = (enumValues.get(init.value) ?? []).filter((e) => e.words.join('').length >= 3 && e.words.every((w) => words.has(w)));
        if (hits.length)
          context.report({ node, messageId: 'literal', data: { name: node.id.name, value: String(init.value), refs: hits.map((h) => h.ref).join(' or ') } });
      },
    };
  },
};

/** resource names of the metadata: the models plugins must not reach past their repositories */
const resourceNames = new Set();
const walk = (dir) => {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.isDirectory()) walk(join(dir, e.name));
    else if (e.name.endsWith('.json')) resourceNames.add(JSON.parse(readFileSync(join(dir, e.name), 'utf8')).name);
  }
};
walk(join(root, 'metadata/resources'));
for (const dir of pluginMetadata) if (existsSync(join(dir, 'resources'))) walk(join(dir, 'resources'));

/**
 * Plugins read and write resource rows through ctx.repo(), whose every statement carries the
 * caller's organisation and warehouses (docs/PLUGINS.md "Scope"). A resource's Sequelize model
 * (`db.models.carrier`, `database.models[name]`, a repository's `['model']`) would skip that
 * scope, so reaching one is an error; a plugin's own tables (`sequelize.models.SysLicence`)
 * are its own business. Code that must see every organisation by design (platform-wide licence
 * counts, ingest) says so in an eslint-disable comment with its reason.
 */
const noRawModels = {
  meta: {
    type: 'problem',
    docs: { description: 'plugins reach resource rows only through the scoped repository' },
    schema: [],
    messages: {
      models: '\'{{text}}\' reaches a resource model past its scope: use ctx.repo(resource, call) and its scoped methods (docs/PLUGINS.md "Scope")',
      model:
        "'{{text}}' reaches a repository's raw model: use its scoped methods (findAll, rows, count, sum, countBy, updateWhere, deleteWhere, insertMany, …)",
    },
  },
  create(context) {
    const name = (node) => (node.computed ? (node.property.type === 'Literal' ? String(node.property.value) : null) : node.property.name);
    const text = (node) => context.sourceCode.getText(node).slice(0, 60);
    return {
      MemberExpression(node) {
        if (node.computed && node.property.type === 'Literal' && node.property.value === 'model') {
          context.report({ node, messageId: 'model', data: { text: text(node) } });
          return;
        }
        if (name(node) !== 'models') return;
        const parent = node.parent;
        // `x.models.OwnTable`: a model the plugin defined itself, not a resource's
        if (parent?.type === 'MemberExpression' && parent.object === node) {
          const next = name(parent);
          if (next !== null && !resourceNames.has(next)) return;
          context.report({ node: parent, messageId: 'models', data: { text: text(parent) } });
          return;
        }
        context.report({ node, messageId: 'models', data: { text: text(node) } });
      },
    };
  },
};

/** whether a plugin's definition declares `ownTables` (the raw handle's reason), read from its server/index.ts */
const ownTablesOf = new Map();
const declaresOwnTables = (id) => {
  if (!ownTablesOf.has(id)) {
    const entry = join(root, 'plugins', id, 'server', 'index.ts');
    ownTablesOf.set(id, existsSync(entry) && /\bownTables\s*:/.test(readFileSync(entry, 'utf8')));
  }
  return ownTablesOf.get(id);
};

/**
 * The raw database handle (`ctx.db`, `ctx.database`) only in a plugin declaring
 * `definePlugin({ ownTables: '<why>' })`: every other plugin reaches resource rows, counts and
 * computed columns through ctx.repo() (its SQL fragments own the dialect) and triggers or indexes
 * over core tables through ctx.schema (docs/PLUGINS.md "Scope"). The server refuses the handle at
 * run time too; server/test/plugin-raw-handle.test.ts reads every plugin's source.
 */
const noRawHandle = {
  meta: {
    type: 'problem',
    docs: { description: 'the raw database handle only in plugins declaring ownTables' },
    schema: [],
    messages: {
      handle:
        '\'{{text}}\': plugin "{{id}}" does not declare ownTables, so it has no raw database handle: use ctx.repo() and its SQL fragments, or ctx.schema (docs/PLUGINS.md "Scope")',
    },
  },
  create(context) {
    const m = /[\\/]plugins[\\/]([^\\/]+)[\\/]server[\\/]/.exec(context.filename);
    if (!m || declaresOwnTables(m[1])) return {};
    const holders = new Set(['ctx', 'context', 'plugin']);
    const handles = new Set(['db', 'database']);
    const report = (node, text) => context.report({ node, messageId: 'handle', data: { text, id: m[1] } });
    return {
      MemberExpression(node) {
        if (!node.computed && node.object.type === 'Identifier' && holders.has(node.object.name) && handles.has(node.property.name))
          report(node, `${node.object.name}.${node.property.name}`);
      },
      VariableDeclarator(node) {
        if (node.id.type !== 'ObjectPattern' || node.init?.type !== 'Identifier' || !holders.has(node.init.name)) return;
        for (const p of node.id.properties)
          if (p.type === 'Property' && !p.computed && p.key.type === 'Identifier' && handles.has(p.key.name))
            report(p, `{ ${p.key.name} } = ${node.init.name}`);
      },
    };
  },
};

export default [
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'test-output/**', 'data/**', '**/*.d.ts', 'console/public/**'],
  },
  {
    files: ['**/*.{ts,tsx,mts,js,mjs}'],
    languageOptions: {
      parser: tsParser,
      parserOptions: { ecmaVersion: 'latest', sourceType: 'module', ecmaFeatures: { jsx: true } },
    },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    plugins: {
      rti: { rules: { boundaries, 'no-enum-literals': noEnumLiterals, 'no-raw-models': noRawModels, 'no-raw-handle': noRawHandle } },
      '@stylistic': stylistic,
      // declared for every file so a disable comment naming one of their rules is understood
      // anywhere; the blocks below turn the rules on where they apply
      'react-hooks': reactHooks,
      '@typescript-eslint': tsPlugin,
    },
    rules: {
      'rti/boundaries': 'error',
      '@stylistic/quotes': ['error', 'single', { avoidEscape: true, allowTemplateLiterals: 'always' }],
      '@stylistic/semi': ['error', 'always'],
      '@stylistic/no-trailing-spaces': 'error',
      '@stylistic/eol-last': 'error',
      '@stylistic/no-tabs': 'error',
      // `<T,>` is how a .tsx file writes a generic arrow function
      '@stylistic/comma-dangle': [
        'error',
        {
          arrays: 'always-multiline',
          objects: 'always-multiline',
          imports: 'always-multiline',
          exports: 'always-multiline',
          functions: 'always-multiline',
          enums: 'always-multiline',
          tuples: 'always-multiline',
          generics: 'ignore',
        },
      ],
      '@stylistic/keyword-spacing': 'error',
      '@stylistic/space-infix-ops': 'error',
      '@stylistic/object-curly-spacing': ['error', 'always'],
      '@stylistic/arrow-parens': ['error', 'always'],
      // a bound on code, not on text: a long message, URL or pattern stays on one line so it
      // can be searched for
      '@stylistic/max-len': [
        'error',
        { code: 200, tabWidth: 2, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true },
      ],
    },
  },
  {
    // plugin-api.ts is the plugins' barrel (it re-exports the shell's helpers); the shell takes the
    // plugin types from plugin-contract.ts, which imports nothing of the shell, so the two never
    // import each other
    files: ['console/src/**/*.{ts,tsx}'],
    ignores: ['console/src/plugin-api.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '(^|/)plugin-api$', message: 'the shell imports the plugin types from plugin-contract.ts; plugin-api.ts is for plugins only' }] },
      ],
    },
  },
  {
    // the rules of hooks on every React screen, the shell's and the plugins'
    files: ['console/src/**/*.{ts,tsx}', 'plugins/*/console/**/*.{ts,tsx}'],
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    // A promise nobody awaits loses its rejection (an unhandled rejection ends the server) and
    // its ordering; a promise handed where a plain callback is expected (an Express handler
    // typed void, a forEach) is not awaited by its caller either. Await it, return it, add a
    // .catch, or mark a deliberate fire-and-forget with `void` and a comment saying why.
    // Type-aware: every file below belongs to the one program of tsconfig.json.
    files: [
      'server/src/**/*.ts',
      'server/test/**/*.ts',
      'ingest/src/**/*.ts',
      'ingest/test/**/*.ts',
      'plugins/*/server/**/*.ts',
      'plugins/*/test/**/*.ts',
      'console/src/**/*.{ts,tsx}',
      'plugins/*/console/**/*.{ts,tsx}',
    ],
    languageOptions: {
      parserOptions: { project: './tsconfig.json', tsconfigRootDir: root },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['plugins/**/*.{ts,tsx}', 'common/**/*.{ts,tsx}'],
    ignores: ['**/test/**', '**/*.test.ts', '**/*.e2e.ts'],
    rules: { 'rti/no-enum-literals': 'error', 'rti/no-raw-models': 'error', 'rti/no-raw-handle': 'error' },
  },
];
