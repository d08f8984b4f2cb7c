/**
 * Hostile input on EVERY registered call (generated, core and plugin), signed in as an
 * administrator with every permission: malformed JSON, wrong types, strings with NUL, lone
 * surrogates, bidi and other control characters, emoji, 300 KB strings, huge, negative and
 * non-finite numbers, 10,000-level nesting, unknown keys and sort fields, prototype keys —
 * into every field the call's resource declares, the common parameters and every body key
 * the handler was seen to read. The server runs as a child process: the suite fails on any
 * 5xx, any code 10000, any broken or unanswered request, and any change of the server's
 * process, while a second user's loop measures the worst stall and the child's peak RSS is
 * read from /proc. docs/SERVER.md "Input limits" states the bounds checked here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LONG, deep, hostileEveryCall, ready, server, startHostileServer } from './support/hostile-suite';

beforeAll(async () => {
  await startHostileServer();
}, 120_000);

afterAll(() => server?.stop());

/** One call as the attacker, parsed. */
async function ask(path: string, body: unknown, language = 'en-US'): Promise<{ status: number; code: number; message: string; data: any }> {
  const res = await fetch(`${ready.url}/api${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Token: ready.attacker.token, OrgId: String(ready.attacker.orgId), Language: language },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const parsed = (await res.json()) as { code: number; message: string; data: unknown };
  return { status: res.status, ...parsed };
}

describe("refusals name the field in the caller's language", () => {
  it('refuses NUL, lone surrogates, bidi overrides and control characters in filters and writes', async () => {
    const cases: Array<[string, Record<string, unknown>, string, string]> = [
      ['/warehouse/list', { name: 'a\u0000b' }, 'zh-CN', '名称'],
      ['/warehouse/list', { remark: 'x\ud800' }, 'ja-JP', '備考'],
      ['/warehouse/create', { code: 'W1', name: 'abc\u202Edef' }, 'en-US', 'Name'],
      ['/warehouse/export', { name: '\u2066x\u2069' }, 'zh-CN', '名称'],
      ['/map/list', { sn: 'a\u0007' }, 'en-US', 'SN'],
    ];
    for (const [path, body, lang, label] of cases) {
      const got = await ask(path, body, lang);
      expect(got, path).toMatchObject({ status: 400, code: 10001 });
      expect(got.message, path).toContain(label);
    }
  });

  it('accepts emoji and other non-ASCII text, and the right-to-left marks real text needs', async () => {
    const name = '😀 倉庫 \u200Fمخزن';
    const created = await ask('/warehouse/create', { code: 'EMOJI1', name });
    expect(created.code, created.message).toBe(0);
    const found = await ask('/warehouse/list', { name: '😀 倉庫' });
    expect(found.code, found.message).toBe(0);
    expect(found.data.list.map((r: { name: string }) => r.name)).toContain(name);
  });

  it('caps filter text, page, limit and ids, and refuses 300 KB strings and deep nesting', async () => {
    const cases: Array<[string, unknown, number, string]> = [
      ['/warehouse/list', { name: 'x'.repeat(257) }, 200, '256'],
      ['/warehouse/list', { name: LONG }, 400, '65536'],
      ['/warehouse/list', { page: 1e300 }, 400, '1000000'],
      ['/warehouse/list', { page: '1e300' }, 400, 'page'],
      ['/warehouse/list', { limit: 1001 }, 400, '1000'],
      ['/warehouse', { id: 1e30 }, 400, 'ID'],
      ['/warehouse/delete', { ids: [1, 2 ** 53 + 2] }, 400, 'ID'],
      ['/device-beacon/import/status', { importId: 1e30 }, 400, 'importId'],
      ['/warehouse/list', `{"name":${deep(10_000)}}`, 400, '32'],
      ['/warehouse/list', '{"__proto__":{"polluted":true}}', 400, '__proto__'],
      ['/task-config/run/list', { page: '1e300' }, 400, 'page'],
    ];
    for (const [path, body, status, text] of cases) {
      const got = await ask(path, body);
      expect({ path, status: got.status, code: got.code }).toEqual({ path, status, code: 10001 });
      expect(got.message, path).toContain(text);
    }
    // unknown sort fields are ignored like unknown filter keys; a known one must be a boolean
    expect((await ask('/warehouse/list', { sortByNope: true, nope: 1 })).code).toBe(0);
    expect((await ask('/warehouse/list', { sortByCode: 'x' })).code).toBe(10001);
  });

  it('accepts only declared resource names on the overlay calls', async () => {
    for (const resource of ['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'prototype', 'nope']) {
      for (const call of ['get', 'update', 'delete']) {
        const got = await ask(`/metadata/overlay/${call}`, { resource });
        expect(got.code, `${call} ${resource}`).toBe(10002);
      }
    }
    for (const odd of [
      { columns: 'x' },
      { columns: [1, {}, null] },
      { fields: [] },
      { fields: { name: 5 } },
      { fields: { nope: {} } },
      { columns: Array.from({ length: 5000 }, (_, i) => `c${i}`) },
    ]) {
      const got = await ask('/metadata/overlay/update', { resource: 'warehouse', ...odd });
      expect(got.code, JSON.stringify(odd).slice(0, 60)).toBe(10001);
      expect(got.message.length).toBeLessThan(2000);
    }
  });
});

describe('hostile input on every registered call', () => {
  it('answers every request with a refusal or a result, never a failure, and keeps serving', async () => {
    await hostileEveryCall({ label: 'hostile-input', command: 'npx vitest run --project server test/hostile-input.test.ts' });
  }, 600_000);
});
