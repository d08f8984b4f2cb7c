/**
 * Header-and-lines documents (metadata `children` inline/cascade/editableWhen/rollUps/
 * uniqueKeys, `number`), proven on carrier binding: the atomic save, generated numbers without
 * gaps under parallel creates, frozen lines, unique line keys, roll-ups a client cannot set,
 * cascade, and the domain hook over lines. Every refusal is translated and leaves nothing
 * half-written. Runs on SQLite, and on MariaDB when TEST_MYSQL_URL is set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { numberScope } from '@rti/metadata';
import type { Language } from '../src/http/types';
import { tKey } from '../src/i18n/translator';
import { callOk, createMasterForCarriers, createSample } from './support/fixtures';
import { startTestServer, type Caller, type TestServer } from './support/test-server';

let ts: TestServer;
const refs: Record<'a' | 'b', Record<string, number>> = { a: {}, b: {} };
const LANGS: Language[] = ['en-US', 'zh-CN', 'ja-JP'];
let n = 300;

const make = (c: Caller, resource: string, r: Record<string, number>, extra: Record<string, unknown> = {}) => createSample(ts, c, resource, n++, r, extra);
const ok = callOk;
const t = (lang: Language, key: string, params?: Record<string, unknown>) => ts.server.t(lang, key, params);

beforeAll(async () => {
  ts = await startTestServer();
  refs.a.organization = ts.orgA;
  refs.b.organization = ts.orgB;
  for (const side of ['a', 'b'] as const) n = await createMasterForCarriers(ts, ts[side], refs[side], n);
});
afterAll(() => ts?.close());

const carrier = (side: 'a' | 'b' = 'a') => make(ts[side], 'carrier', refs[side], { beaconId: null, gpsId: null });
const carriers = async (k: number) => Promise.all(Array.from({ length: k }, () => carrier())).then((cs) => cs.map((c) => c.id as number));
const LINES = 'carrier-bind-detail';
const linesOf = async (id: number) =>
  ((await ts.server.db.models[LINES].findAll({ where: { carrierBindId: id }, order: [['id', 'ASC']], raw: true })) as any[]).map((l) => ({
    carrierId: l.carrierId,
    qty: l.qty,
  }));
const header = async (id: number) => (await ts.server.db.models['carrier-bind'].findByPk(id))!.get({ plain: true }) as Record<string, any>;
const binds = () => ts.server.db.models['carrier-bind'].count();

describe('atomic save', () => {
  it('writes header and lines in one call: number generated, total rolled up, lines answered', async () => {
    const [main, c1, c2] = await carriers(3);
    const saved = await ok(ts.a, '/carrier-bind/save', {
      carrierId: main,
      remark: 'one call',
      lines: [
        { carrierId: c1, qty: 2 },
        { carrierId: c2, qty: 3 },
      ],
    });
    const scope = numberScope('BD{date:YYYYMMDD}{seq:4}', new Date(), ts.server.config.timeZone);
    expect(saved.bindNo).toMatch(new RegExp(`^${scope.replace('{seq}', '')}\\d{4}$`));
    expect(saved).toMatchObject({ carrierId: main, status: 10, totalAmount: 5, remark: 'one call', orgId: ts.orgA });
    // the answer names the lines by id; the rows page through the line resource's list
    const listed = await ok(ts.a, `/${LINES}/list`, { carrierBindId: saved.id });
    expect(saved.lines[LINES]).toEqual({ total: 2, ids: listed.list.map((l: any) => l.id) });
    expect(listed.list.map((l: any) => [l.carrierId, l.qty, l.carrierBindId])).toEqual([
      [c1, 2, saved.id],
      [c2, 3, saved.id],
    ]);
    expect(listed.list[0].carrierIdLabel).toBeTruthy();
  });

  it('replaces the lines: changed, added and removed in one transaction; the total follows', async () => {
    const [main, c1, c2, c3] = await carriers(4);
    const saved = await ok(ts.a, '/carrier-bind/save', {
      carrierId: main,
      lines: {
        [LINES]: [
          { carrierId: c1, qty: 1 },
          { carrierId: c2, qty: 1 },
        ],
      },
    });
    const [l1] = saved.lines[LINES].ids;
    const again = await ok(ts.a, '/carrier-bind/save', {
      id: saved.id,
      remark: 'edited',
      lines: [
        { id: l1, carrierId: c1, qty: 7 },
        { carrierId: c3, qty: 4 },
      ],
    });
    expect(again.lines[LINES].ids[0]).toBe(l1);
    expect(again).toMatchObject({ id: saved.id, bindNo: saved.bindNo, remark: 'edited', totalAmount: 11 });
    expect(await linesOf(saved.id)).toEqual([
      { carrierId: c1, qty: 7 },
      { carrierId: c3, qty: 4 },
    ]);
    // header-only save leaves the lines alone
    await ok(ts.a, '/carrier-bind/save', { id: saved.id, remark: 'header only' });
    expect(await linesOf(saved.id)).toHaveLength(2);
  });

  it('the single-line calls keep the same rules and total', async () => {
    const [main, c1, c2] = await carriers(3);
    const doc = await ok(ts.a, '/carrier-bind/create', { carrierId: main });
    const l = await ok(ts.a, `/${LINES}/create`, { carrierBindId: doc.id, carrierId: c1, qty: 4 });
    await ok(ts.a, `/${LINES}/create`, { carrierBindId: doc.id, carrierId: c2, qty: 6 });
    expect((await header(doc.id)).totalAmount).toBe(10);
    await ok(ts.a, `/${LINES}/update`, { id: l.id, qty: 1 });
    expect((await header(doc.id)).totalAmount).toBe(7);
    await ok(ts.a, `/${LINES}/delete`, { id: l.id });
    expect((await header(doc.id)).totalAmount).toBe(6);
  });

  it('deleting a document deletes its lines (cascade)', async () => {
    const [main, c1] = await carriers(2);
    const doc = await ok(ts.a, '/carrier-bind/save', { carrierId: main, lines: [{ carrierId: c1 }] });
    await ok(ts.a, '/carrier-bind/delete', { id: doc.id });
    expect(await linesOf(doc.id)).toEqual([]);
  });

  it('domain rules over lines (documents.onLines) see all lines of a save at once, one line of a single-line call', async () => {
    const seen: Array<[number, number, number]> = [];
    const off = ts.server.documents.onLines('carrier-bind', (e) => void seen.push([e.added.length, e.changed.length, e.removed.length]));
    try {
      const [main, c1, c2, c3] = await carriers(4);
      const doc = await ok(ts.a, '/carrier-bind/save', { carrierId: main, lines: [{ carrierId: c1 }, { carrierId: c2 }] });
      await ok(ts.a, '/carrier-bind/save', { id: doc.id, lines: [{ id: doc.lines[LINES].ids[0], carrierId: c1, qty: 9 }] });
      await ok(ts.a, `/${LINES}/create`, { carrierBindId: doc.id, carrierId: c3 });
      expect(seen).toEqual([
        [2, 0, 0],
        [0, 1, 1],
        [1, 0, 0],
      ]);
    } finally {
      off();
    }
  });
});

describe('document numbers', () => {
  it('are consecutive per organisation under parallel creates, with no gaps after a rolled-back create', async () => {
    const mains = await carriers(12);
    const made = await Promise.all(mains.slice(0, 10).map((carrierId) => ts.a.call('/carrier-bind/create', { carrierId })));
    for (const r of made) expect(r.body.code, r.body.message).toBe(0);
    const seqs = made.map((r) => Number(String(r.body.data.bindNo).slice(-4))).sort((x, y) => x - y);
    expect(new Set(seqs).size).toBe(10);
    expect(seqs[9] - seqs[0]).toBe(9);
    // a create that fails inside its transaction gives its number back
    const off = ts.server.hooks.before('create', 'carrier-bind', (e) => {
      if (e.data?.remark === 'fail') throw new Error('refused late');
    });
    try {
      expect((await ts.a.call('/carrier-bind/create', { carrierId: mains[10], remark: 'fail' })).body.code).toBe(10000);
    } finally {
      off();
    }
    const next = await ok(ts.a, '/carrier-bind/create', { carrierId: mains[10] });
    expect(Number(String(next.bindNo).slice(-4))).toBe(seqs[9] + 1);
    // a typed-in number is kept; the sequence steps over a number already taken by hand
    const scope = numberScope('BD{date:YYYYMMDD}{seq:4}', new Date()).replace('{seq}', '');
    const typed = `${scope}${String(seqs[9] + 2).padStart(4, '0')}`;
    expect((await ok(ts.a, '/carrier-bind/create', { carrierId: mains[11], bindNo: typed })).bindNo).toBe(typed);
    const after = await ok(ts.a, '/carrier-bind/create', { carrierId: (await carrier()).id });
    expect(after.bindNo).toBe(`${scope}${String(seqs[9] + 3).padStart(4, '0')}`);
    // another organisation counts on its own
    const first = await ok(ts.b, '/carrier-bind/create', { carrierId: (await carrier('b')).id });
    expect(first.bindNo).toBe(`${scope}0001`);
  });
});

describe('bad input: a clear translated refusal and nothing half-written', () => {
  it('a client sending its own total is refused (create, update, save)', async () => {
    const [main, c1] = await carriers(2);
    const before = await binds();
    for (const lang of LANGS) {
      const expected = t(lang, 'server.validation.rollUp', { field: tKey('fields.totalAmount') });
      const viaSave = await ts.a.call('/carrier-bind/save', { carrierId: main, totalAmount: 999, lines: [{ carrierId: c1 }] }, { language: lang });
      expect(viaSave.body).toMatchObject({ code: 10001, message: expected });
      const viaCreate = await ts.a.call('/carrier-bind/create', { carrierId: main, totalAmount: 999 }, { language: lang });
      expect(viaCreate.body).toMatchObject({ code: 10001, message: expected });
    }
    expect(await binds()).toBe(before);
    const doc = await ok(ts.a, '/carrier-bind/save', { carrierId: main, lines: [{ carrierId: c1, qty: 2 }] });
    expect((await ts.a.call('/carrier-bind/update', { id: doc.id, totalAmount: 1 })).body.code).toBe(10001);
    expect((await header(doc.id)).totalAmount).toBe(2);
  });

  it('lines of a released document are frozen: save, create, update and delete answer 10004', async () => {
    const [main, c1, c2] = await carriers(3);
    const doc = await ok(ts.a, '/carrier-bind/save', { carrierId: main, lines: [{ carrierId: c1, qty: 2 }] });
    const line = { id: doc.lines[LINES].ids[0] };
    await ok(ts.a, '/carrier-bind/release', { id: doc.id });
    for (const lang of LANGS) {
      const frozen = t(lang, 'rules.bindNotEditable');
      const save = await ts.a.call(
        '/carrier-bind/save',
        { id: doc.id, lines: [{ id: line.id, carrierId: c1, qty: 5 }, { carrierId: c2 }] },
        { language: lang },
      );
      expect(save.body).toMatchObject({ code: 10004, message: frozen });
      // a change of an existing line alone (no line added) is refused too
      const change = await ts.a.call('/carrier-bind/save', { id: doc.id, lines: [{ id: line.id, carrierId: c1, qty: 5 }] }, { language: lang });
      expect(change.body).toMatchObject({ code: 10004, message: frozen });
      // and so is removing every line
      expect((await ts.a.call('/carrier-bind/save', { id: doc.id, lines: [] }, { language: lang })).body).toMatchObject({ code: 10004, message: frozen });
      const add = await ts.a.call(`/${LINES}/create`, { carrierBindId: doc.id, carrierId: c2 }, { language: lang });
      expect(add.body).toMatchObject({ code: 10004, message: frozen });
      expect((await ts.a.call(`/${LINES}/update`, { id: line.id, qty: 9 }, { language: lang })).body).toMatchObject({ code: 10004, message: frozen });
      expect((await ts.a.call(`/${LINES}/delete`, { id: line.id }, { language: lang })).body).toMatchObject({ code: 10004, message: frozen });
    }
    expect(await linesOf(doc.id)).toEqual([{ carrierId: c1, qty: 2 }]);
    expect((await header(doc.id)).totalAmount).toBe(2);
    // saving the header with its lines unchanged is still fine (nothing about the lines changes)
    const kept = await ok(ts.a, '/carrier-bind/save', { id: doc.id, remark: 'note', lines: [{ id: line.id, carrierId: c1, qty: 2 }] });
    expect(kept.remark).toBe('note');
  });

  it('duplicate line keys: within one save (naming both lines) and against the stored lines', async () => {
    const [main, c1, c2] = await carriers(3);
    const before = await binds();
    const dup = await ts.a.call(
      '/carrier-bind/save',
      { carrierId: main, lines: [{ carrierId: c1 }, { carrierId: c2 }, { carrierId: c1 }] },
      { language: 'ja-JP' },
    );
    expect(dup.body.code).toBe(10003);
    expect(dup.body.message).toBe(t('ja-JP', 'server.documents.duplicateInSave', { line: 3, first: 1, field: [tKey('fields.carrier')] }));
    expect(await binds()).toBe(before);
    const doc = await ok(ts.a, '/carrier-bind/save', { carrierId: main, lines: [{ carrierId: c1 }] });
    const c1sn = (await ok(ts.a, '/carrier', { id: c1 })).sn;
    const again = await ts.a.call(`/${LINES}/create`, { carrierBindId: doc.id, carrierId: c1 });
    expect(again.body.code).toBe(10003);
    expect(again.body.message).toBe(
      t('en-US', 'server.documents.duplicateLine', { field: tKey('fields.carrier'), value: c1sn, resource: tKey('resources.carrier-bind'), title: doc.bindNo }),
    );
    expect(await linesOf(doc.id)).toEqual([{ carrierId: c1, qty: 1 }]);
  });

  it('a bad line is named by its number; nothing of the save is written', async () => {
    const [main, c1, c2] = await carriers(3);
    const before = await binds();
    for (const lang of LANGS) {
      const r = await ts.a.call('/carrier-bind/save', { carrierId: main, lines: [{ carrierId: c1 }, { carrierId: c2, qty: 0 }] }, { language: lang });
      expect(r.body.code).toBe(10001);
      expect(r.body.message).toBe(
        t(lang, 'server.documents.lineError', {
          resource: tKey('resources.carrier-bind-detail'),
          line: 2,
          message: { $t: 'server.validation.valueBetween', params: { field: tKey('fields.qty'), min: 1, max: 100000 } },
        }),
      );
    }
    expect(await binds()).toBe(before);
  });

  it("lines cannot take over another document's line or point at another organisation's rows", async () => {
    const [main, c1, main2, c2] = await carriers(4);
    const mine = await ok(ts.a, '/carrier-bind/save', { carrierId: main, lines: [{ carrierId: c1 }] });
    const other = await ok(ts.a, '/carrier-bind/save', { carrierId: main2, lines: [{ carrierId: c2 }] });
    const steal = await ts.a.call('/carrier-bind/save', { id: mine.id, lines: [{ id: other.lines[LINES].ids[0], carrierId: c2 }] });
    expect(steal.body.code).toBe(10002);
    const foreign = await carrier('b');
    const cross = await ts.a.call('/carrier-bind/save', { id: mine.id, lines: [{ carrierId: foreign.id }] });
    expect(cross.body).toMatchObject({ code: 10001, message: t('en-US', 'server.validation.refMissing', { field: tKey('fields.carrier') }) });
    expect(await linesOf(mine.id)).toEqual([{ carrierId: c1, qty: 1 }]);
    expect(await linesOf(other.id)).toEqual([{ carrierId: c2, qty: 1 }]);
    // B cannot save into A's document at all
    expect((await ts.b.call('/carrier-bind/save', { id: mine.id, lines: [] })).body.code).toBe(10002);
    expect(await linesOf(mine.id)).toHaveLength(1);
  });
});

describe('cascade of lines', () => {
  /** DELETE statements on the lines' table while `fn` runs */
  async function deletesOfLines(fn: () => Promise<void>): Promise<number> {
    const seq = ts.server.db.sequelize;
    const table = String(ts.server.db.models[LINES].getTableName());
    const original = seq.query.bind(seq);
    let n = 0;
    (seq as any).query = (sql: unknown, ...rest: unknown[]) => {
      const text = typeof sql === 'string' ? sql : String((sql as { query?: string })?.query ?? '');
      if (/^\s*DELETE\b/i.test(text) && text.includes(table)) n++;
      return (original as any)(sql, ...rest);
    };
    try {
      await fn();
    } finally {
      (seq as any).query = original;
    }
    return n;
  }

  it('is set-based when no hook acts on a single line: one DELETE for every line, other documents untouched', async () => {
    expect(ts.server.hooks.hearsCascadedDelete(LINES, 'carrier-bind')).toBe(false);
    const [main, other, ...cs] = await carriers(14);
    const doc = await ok(ts.a, '/carrier-bind/save', { carrierId: main, lines: cs.slice(0, 10).map((carrierId) => ({ carrierId, qty: 1 })) });
    const kept = await ok(ts.a, '/carrier-bind/save', { carrierId: other, lines: cs.slice(10).map((carrierId) => ({ carrierId, qty: 2 })) });
    const n = await deletesOfLines(() => ok(ts.a, '/carrier-bind/delete', { id: doc.id }));
    expect(n).toBe(1);
    expect(await linesOf(doc.id)).toEqual([]);
    expect(await linesOf(kept.id)).toEqual([
      { carrierId: cs[10], qty: 2 },
      { carrierId: cs[11], qty: 2 },
    ]);
    expect((await header(kept.id)).totalAmount).toBe(4);
  });

  it('goes line by line, hooks and all, when a hook listens to deletes of the lines', async () => {
    const [main, ...cs] = await carriers(6);
    const doc = await ok(ts.a, '/carrier-bind/save', { carrierId: main, lines: cs.map((carrierId) => ({ carrierId })) });
    const seen: number[] = [];
    const off = ts.server.hooks.before('delete', LINES, (e) => void seen.push(Number(e.row!.carrierId)));
    try {
      expect(ts.server.hooks.hearsCascadedDelete(LINES, 'carrier-bind')).toBe(true);
      const n = await deletesOfLines(() => ok(ts.a, '/carrier-bind/delete', { id: doc.id }));
      expect(n).toBe(cs.length);
      expect(seen.sort((a, b) => a - b)).toEqual([...cs].sort((a, b) => a - b));
      expect(await linesOf(doc.id)).toEqual([]);
    } finally {
      off();
    }
  });

  it('a hook refusing one line rolls back the header and every line', async () => {
    const [main, c1, c2] = await carriers(3);
    const doc = await ok(ts.a, '/carrier-bind/save', { carrierId: main, lines: [{ carrierId: c1 }, { carrierId: c2 }] });
    const off = ts.server.hooks.before('delete', LINES, (e) => {
      if (Number(e.row!.carrierId) === c2) throw new Error('refused');
    });
    try {
      const r = await ts.a.call('/carrier-bind/delete', { id: doc.id });
      expect(r.body.code).not.toBe(0);
    } finally {
      off();
    }
    expect(await header(doc.id)).toMatchObject({ id: doc.id });
    expect(await linesOf(doc.id)).toHaveLength(2);
  });
});
