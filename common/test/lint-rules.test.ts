/**
 * The lint step of `npm test` fails the build on a boundary crossing or a re-typed enum value:
 * the rules run here on small sources placed (virtually) in the repository's folders.
 */
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
// The sources here are virtual (not files of tsconfig.json), so the type-aware rules, which need
// the one program, are left out: the rules under test read the syntax only.
const eslint = new ESLint({
  cwd: root,
  overrideConfig: [
    {
      languageOptions: { parserOptions: { project: null } },
      rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off' },
    },
  ],
});
const problems = async (filePath: string, code: string) =>
  (await eslint.lintText(code, { filePath })).flatMap((r) => r.messages.map((m) => `${m.ruleId}: ${m.message}`));

describe('lint rules', () => {
  it('refuses relative imports into another plugin or an engine, and unexported deep paths', async () => {
    const found = await problems(
      'plugins/vehicle/server/x.ts',
      [
        "import { a } from '../../telemetry/server/runtime';",
        "import { b } from '../../../console/src/providers/http-client';",
        "import { c } from '../../../server/src/resources/repository';",
        "import { d } from '@rti/server/resources/repository';",
        "import { e } from '@rti/plugin-map/server/history';",
        "export { f } from '../../map/shared/x';",
        'export const x = [a, b, c, d, e];',
        '',
      ].join('\n'),
    );
    expect(found).toHaveLength(6);
    expect(found[0]).toContain('reaches into plugins/telemetry by relative path: import it from @rti/plugin-telemetry');
    expect(found[1]).toContain('@rti/console/plugin-api');
    expect(found[3]).toContain("'@rti/server/resources/repository' is not among the exports of @rti/server");
  });

  it("accepts package exports and the plugin's own files", async () => {
    const ok = await problems(
      'plugins/vehicle/server/x.ts',
      [
        "import { definePlugin } from '@rti/server/plugin-api';",
        "import type { TelemetryApi } from '@rti/plugin-telemetry/api';",
        "import { haversine } from '@rti/common';",
        "import { request } from '@rti/console/plugin-api';",
        "import { y } from '../shared/report';",
        'export const x = [definePlugin, haversine, request, y] as unknown as TelemetryApi;',
        '',
      ].join('\n'),
    );
    expect(ok).toEqual([]);
  });

  it('refuses an engine importing a plugin', async () => {
    const found = await problems('server/src/x.ts', "import { a } from '../../plugins/map/server/history';\nexport const x = a;\n");
    expect(found).toEqual([expect.stringContaining('server must not depend on a plugin (plugins/map)')]);
  });

  it('finds enum values re-typed as numbers in plugins', async () => {
    const found = await problems('plugins/master-data/server/x.ts', 'export const BIND_NEW = 10;\nexport const INBOUND = 10;\nexport const PAGE_SIZE = 10;\n');
    expect(found).toEqual([
      expect.stringContaining('BIND_NEW = 10 re-types Enums.carrierBindStatus.new'),
      expect.stringContaining('INBOUND = 10 re-types Enums.inoutDirection.inbound'),
    ]);
  });

  it('refuses resource models reached past the scoped repository in plugins', async () => {
    const code = [
      'export async function f(ctx: any, call: any) {',
      "  const repo = ctx.repo('carrier', call);",
      "  await repo['model'].findAll();",
      '  await ctx.db.models.carrier.findAll();',
      "  await ctx.database.models['device-gps'].count();",
      '  const all = ctx.database.models;',
      '  await ctx.db.models[call.resource].count();',
      '  return [all, ctx.db.models.SysLicence, await repo.count({ sn: 1 })];',
      '}',
      '',
    ].join('\n');
    const found = await problems('plugins/map/server/x.ts', code);
    expect(found).toHaveLength(5);
    expect(found[0]).toContain("repo['model']");
    expect(found[1]).toContain("'ctx.db.models.carrier' reaches a resource model past its scope");
    // a plugin's own table (not a resource) and the plugin's tests are its own business
    expect(found.join('\n')).not.toContain('SysLicence');
    expect(await problems('plugins/map/test/x.test.ts', code)).toEqual([]);
  });
});
