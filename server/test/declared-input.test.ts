/**
 * Declared inputs of plugin calls (`ctx.addCall({ input, paging })`, docs/PLUGINS.md "Declared
 * call inputs"): the handler gets its fields validated by the generated calls' validator and
 * typed; a refusal is a 10001 naming the field's label in the caller's language; paging is
 * bounded like the generated lists' (page 1e300, 2.5 or -1 is a clear 10001, never a 10000).
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validateInput } from '../src/http/declared-input';
import { startTestServer, type TestServer } from './support/test-server';

const pluginsDir = fileURLToPath(new URL('./support/input-plugins', import.meta.url));
let ts: TestServer;

beforeAll(async () => {
  ts = await startTestServer({ plugins: true, config: { pluginsDir } });
  for (let i = 1; i <= 3; i++) expect((await ts.a.call('/warehouse/create', { code: `TW${i}`, name: `Typed ${i}` })).body.code).toBe(0);
});
afterAll(() => ts?.close());

describe('declared call inputs', () => {
  it('hands the handler its declared fields typed, defaults filled, undeclared keys left out', async () => {
    const got = await ts.a.call('/typed/echo', {
      count: '7',
      threshold: 2.5,
      name: 'abc',
      warehouseId: 3,
      carrierIds: [4, '5', 4],
      status: 10,
      motion: 'moving',
      since: '2026-01-02T03:04:05Z',
      day: '2026-02-28',
      nope: 1,
    });
    expect(got.body.code, got.body.message).toBe(0);
    expect(got.body.data).toMatchObject({
      count: 7,
      threshold: 2.5,
      name: 'abc',
      warehouseId: 3,
      carrierIds: [4, 5],
      status: 10,
      motion: 'moving',
      since: '2026-01-02T03:04:05.000Z',
      day: '2026-02-28',
      unsolved: true,
    });
    expect(got.body.data.types).toMatchObject({ count: 'number', since: 'date', carrierIds: 'array', unsolved: 'boolean' });
    expect(got.body.data).not.toHaveProperty('nope');
    // empty values are absent; one value for a list field is a list of one
    const empty = await ts.a.call('/typed/echo', { count: 1, name: '', warehouseId: null, carrierIds: 9, unsolved: false });
    expect(empty.body.data).toMatchObject({ count: 1, carrierIds: [9], unsolved: false });
    expect(empty.body.data).not.toHaveProperty('name');
  });

  it("refuses with a 10001 naming the field by its label, in the caller's language", async () => {
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ count: 1, threshold: 11 }, 'en-US', 'Alert threshold: value between 0 and 10'],
      [{ count: 1, threshold: 11 }, 'zh-CN', '告警阈值'],
      [{ count: 1, threshold: -1 }, 'ja-JP', 'アラートしきい値'],
      [{ count: 1, threshold: 'x' }, 'en-US', 'Alert threshold must be'],
      [{}, 'en-US', 'count'],
      [{ count: 0 }, 'en-US', 'count: value between 1 and 100'],
      [{ count: 2.5 }, 'en-US', 'count must be'],
      [{ count: 1e300 }, 'zh-CN', 'count'],
      [{ count: 1, name: 'x'.repeat(21) }, 'zh-CN', '名称'],
      [{ count: 1, name: 5 }, 'en-US', 'Name must be'],
      [{ count: 1, code: 'a b' }, 'ja-JP', 'コード'],
      [{ count: 1, warehouseId: -1 }, 'en-US', 'warehouseId'],
      [{ count: 1, warehouseId: 2 ** 40 }, 'en-US', 'warehouseId'],
      [{ count: 1, carrierIds: [1, 2, 3, 4, 5, 6] }, 'en-US', 'carrierIds: at most 5'],
      [{ count: 1, carrierIds: [1, {}] }, 'en-US', 'carrierIds'],
      [{ count: 1, status: 11 }, 'en-US', 'Status: "11" is not an allowed value'],
      [{ count: 1, motion: 'flying' }, 'zh-CN', 'flying'],
      [{ count: 1, since: '2026-02-30T25:61:00Z' }, 'en-US', 'since'],
      [{ count: 1, since: 8.64e15 }, 'en-US', 'since'],
      [{ count: 1, day: '2026-02-30' }, 'en-US', 'Day must be a date'],
      [{ count: 1, unsolved: 'yes' }, 'en-US', 'unsolved must be'],
      [{ count: { $gt: 0 } }, 'en-US', 'count'],
      // refused by the body walk before the handler: named by the declared label too
      [{ count: 1, threshold: 'a\u0000b' }, 'zh-CN', '告警阈值'],
    ];
    for (const [body, language, text] of cases) {
      const got = await ts.a.call('/typed/echo', body, { language });
      expect({ body, code: got.body.code }).toEqual({ body, code: 10001 });
      expect(got.body.message, JSON.stringify(body)).toContain(text);
    }
  });

  it('pages like the generated lists, and refuses page 1e300, 2.5 and -1 with a clear 10001', async () => {
    const all = await ts.a.call('/typed/warehouses', {});
    expect(all.body.data).toMatchObject({ page: 1, limit: 10, total: 3 });
    const second = await ts.a.call('/typed/warehouses', { page: 2, limit: 1 });
    expect(second.body.data).toMatchObject({ page: 2, limit: 1, total: 3, ids: [all.body.data.ids[1]] });
    expect((await ts.a.call('/typed/warehouses', { page: '3', limit: '1' })).body.data.ids).toEqual([all.body.data.ids[2]]);
    for (const page of [1e300, 2.5, -1, 0, '1e300', 'x', [], {}, true]) {
      for (const language of ['en-US', 'zh-CN', 'ja-JP']) {
        const got = await ts.a.call('/typed/warehouses', { page }, { language });
        expect({ page, code: got.body.code }).toEqual({ page, code: 10001 });
        expect(got.body.message).toContain('1000000');
      }
    }
    for (const limit of [51, 1e300, 0.5, -3]) {
      const got = await ts.a.call('/typed/warehouses', { limit });
      expect({ limit, code: got.body.code }).toEqual({ limit, code: 10001 });
      expect(got.body.message).toContain('50');
    }
  });

  it('validates without a server: the same validator, first refusal wins', () => {
    const decl = { a: { type: 'int', required: true }, b: { type: 'string', maxLength: 3 } } as const;
    expect(validateInput(decl, { a: '12', b: 'xy' }, {})).toEqual({ a: 12, b: 'xy' });
    expect(() => validateInput(decl, { b: 'long text' }, {})).toThrow(/required/);
    expect(validateInput({}, { page: 2 }, {}, true)).toEqual({ page: 2, limit: 10, offset: 10 });
  });

  it('refuses to register an enum input naming no enumeration', async () => {
    const { withDeclaredInput } = await import('../src/http/declared-input');
    expect(() => withDeclaredInput({ path: '/x', input: { s: { type: 'enum', enum: 'nope' } }, handler: () => null }, () => ({}))).toThrow(
      /enumeration "nope"/,
    );
    expect(() => withDeclaredInput({ path: '/x', input: { s: { type: 'enum' } }, handler: () => null }, () => ({}))).toThrow(/without `enum`/);
  });
});
