// Form defaults from a call (metadata form.defaultsFrom, issue 12: the new ship order form asks
// /ship-order/setup): the create form asks when it opens and again when the user changes a
// field the call reacts to; defaults fill only what the user has not touched, a default that no
// longer applies goes, the newest answer wins, and the answer's lists become picker options
// labelled by a metadata key ("Shanghai Hub — 412 in stock").
import { act } from 'react';
import { ConfigProvider } from 'antd';
import dayjs from 'dayjs';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { FieldDef, FormDefaultsDef, ResourceDef } from '@rti/metadata/browser';
import { MetaCreate } from '../src/meta/pages/create';
import { choicesOf, defaultLabels, defaultsRequest, defaultsToApply } from '../src/meta/lib/form-defaults';
import { cleanup, fakeData, initTestI18n, metaOf, mount, settle, stubApi, thingsResource, waitFor, type ApiCall } from './support/render';

const setup: FormDefaultsDef = {
  call: '/shipment/setup',
  on: ['fromId', 'toId', 'leaveAt'],
  choices: { fromId: { from: 'senders', label: 'choices.stock' }, toId: { from: 'receivers' } },
};
const fields: FieldDef[] = [
  { name: 'no', type: 'string' },
  { name: 'fromId', type: 'ref', ref: { resource: 'site', label: 'name' } },
  { name: 'toId', type: 'ref', ref: { resource: 'site', label: 'name' } },
  { name: 'mode', type: 'int' },
  { name: 'leaveAt', type: 'datetime' },
  { name: 'arriveAt', type: 'datetime' },
  { name: 'total', type: 'int', readOnly: true },
];
// a document (lines edited on the same page), as the ship order is
const shipment = thingsResource('shipment', fields, {
  titleField: 'no',
  form: { defaultsFrom: setup },
  children: [{ resource: 'shipment-line', foreignKey: 'shipmentId', inline: true, cascade: true }],
});
// a document made from another (a receipt from its ship order): the answer's `labels` name the
// defaulted refs, as rows carry them; no choices declared
const receipt = thingsResource('receipt', fields, {
  titleField: 'no',
  form: { defaultsFrom: { call: '/receipt/prefill', on: ['mode'] } },
  source: { resource: 'site', field: 'fromId' } as ResourceDef['source'],
  children: [{ resource: 'shipment-line', foreignKey: 'shipmentId', inline: true, cascade: true }],
});
// the same form without lines: the record form (Refine's useForm) asks alike
const visit = thingsResource('visit', fields, { titleField: 'no', form: { defaultsFrom: { ...setup, call: '/visit/setup' } } });
const line = thingsResource('shipment-line', [
  { name: 'shipmentId', type: 'ref', ref: { resource: 'shipment', label: 'no' } },
  { name: 'sn', type: 'string' },
]);
const site = thingsResource('site', [{ name: 'name', type: 'string' }], { titleField: 'name' });
const meta = metaOf(shipment, visit, receipt, line, site);

const SITES = [
  { id: 1, name: 'Shanghai Hub', inStock: 412 },
  { id: 2, name: 'Osaka DC', inStock: 0 },
  { id: 3, name: 'Tokyo Port', inStock: 7 },
];
const HOURS = 10;
/** The server's rule, in short: one route leaves Shanghai (to Osaka, 10 h); eta = etd + its time. */
function answer(body: Record<string, unknown>, now = '2026-03-02T08:00:00.000Z') {
  const from = body.fromId as number | undefined;
  const to = (body.toId as number | undefined) ?? (from === 1 ? 2 : undefined);
  const leave = (body.leaveAt as string | undefined) ?? now;
  const routed = from === 1 && to === 2;
  return {
    defaults: {
      mode: routed ? 20 : null,
      fromId: from ?? null,
      toId: to ?? null,
      leaveAt: leave,
      arriveAt: routed ? dayjs(leave).add(HOURS, 'hour').toISOString() : null,
      total: 99,
      unknownField: 1,
    },
    senders: SITES,
    receivers: SITES.map(({ id, name }) => ({ id, name })),
  };
}

describe('form defaults, the rules', () => {
  const touchedOnly =
    (...names: string[]) =>
    (n: string) =>
      names.includes(n);

  it('sends only the reacting fields the user set, as the API takes them', () => {
    const at = dayjs('2026-03-02T09:30:00.000Z');
    expect(defaultsRequest(setup, fields, { fromId: 1, toId: 2, leaveAt: at, no: 'X' }, touchedOnly('fromId', 'leaveAt', 'no'))).toEqual({
      fromId: 1,
      leaveAt: at.toISOString(),
    });
    // cleared by the user: not sent (the call chooses again)
    expect(defaultsRequest(setup, fields, { fromId: null }, touchedOnly('fromId'))).toEqual({});
  });

  it('fills untouched fields only; a null default clears only what an answer filled', () => {
    const filled = new Set<string>();
    const first = defaultsToApply(
      fields,
      { fromId: 1, toId: 2, arriveAt: '2026-03-02T18:00:00.000Z', mode: null, total: 5, nope: 1 },
      touchedOnly('fromId'),
      filled,
    );
    // the user's shipper stays; read-only and unknown fields are not the form's
    expect(Object.keys(first).sort()).toEqual(['arriveAt', 'toId']);
    expect(dayjs.isDayjs(first.arriveAt) && (first.arriveAt as dayjs.Dayjs).toISOString()).toBe('2026-03-02T18:00:00.000Z');
    expect([...filled].sort()).toEqual(['arriveAt', 'toId']);
    // no route any more: the eta it gave goes, the mode the form started with stays
    const second = defaultsToApply(fields, { arriveAt: null, mode: null, toId: 3 }, touchedOnly(), filled);
    expect(second).toEqual({ arriveAt: null, toId: 3 });
    expect([...filled]).toEqual(['toId']);
  });

  it("labels the answer's rows by the metadata key, else by the ref's label field", () => {
    const t = (key: string, o?: Record<string, unknown>) => `${key}:${String(o?.name)}/${String(o?.inStock)}`;
    expect(choicesOf(setup, fields, answer({}), t)).toEqual({
      fromId: SITES.map((s) => ({ value: s.id, label: `choices.stock:${s.name}/${s.inStock}` })),
      toId: SITES.map((s) => ({ value: s.id, label: s.name })),
    });
    // a list the answer lacks gives no options (the picker keeps searching the server)
    expect(choicesOf(setup, fields, { defaults: {} }, t)).toEqual({});
  });

  it('names the defaulted refs by the labels the answer carries', () => {
    const got = defaultLabels(fields, {
      defaults: { fromId: 1, toId: null, mode: 20 },
      labels: { fromIdLabel: 'Shanghai Hub', toIdLabel: 'Osaka DC', modeLabel: 'x' },
    });
    expect(got).toEqual({ fromId: { '1': 'Shanghai Hub' } });
    expect(defaultLabels(fields, undefined)).toEqual({});
  });
});

describe('form defaults, on the create screen', () => {
  let calls: ApiCall[];
  let hold: Array<() => void> = [];
  let holdNext = false;
  beforeAll(() =>
    initTestI18n({
      'en-US': {
        choices: { stock: '{{name}} — {{inStock}} in stock' },
        fields: { fromId: 'Shipper', toId: 'Receiver', leaveAt: 'ETD', arriveAt: 'ETA', mode: 'Mode' },
      },
    }),
  );
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    hold = [];
    holdNext = false;
  });

  const setupCalls = (call = '/shipment/setup') => calls.filter((c) => c.path === call);
  const selector = (host: HTMLElement, name: string) => host.querySelector(`.ant-form-item:has(#${name}) .ant-select`)!;
  const shown = (host: HTMLElement, name: string) => selector(host, name).querySelector('.ant-select-selection-item')?.textContent ?? '';
  const inputOf = (host: HTMLElement, name: string) => host.querySelector<HTMLInputElement>(`#${name}`)!;
  const options = () => [...document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option')];

  async function pick(host: HTMLElement, name: string, text: string) {
    await act(async () => {
      selector(host, name)
        .querySelector('.ant-select-selector')!
        .dispatchEvent(new MouseEvent('mousedown', { bubbles: true }));
    });
    const option = await waitFor(
      () => options().find((o) => o.textContent === text),
      3000,
      () => JSON.stringify(options().map((o) => o.textContent)),
    );
    await act(async () => {
      option.dispatchEvent(new MouseEvent('click', { bubbles: true }));
    });
  }

  async function open(resource: ResourceDef = shipment) {
    calls = stubApi(async ({ path, body }) => {
      if (!path.endsWith('/setup')) return {};
      if (holdNext) {
        holdNext = false;
        await new Promise<void>((r) => hold.push(r));
      }
      return answer(body);
    });
    const data = fakeData({ site: SITES });
    const view = await mount({
      path: `${resource.route}/create`,
      meta,
      dataProvider: data.provider,
      // options rendered without a virtual list (jsdom has no layout to measure)
      wrap: (app) => <ConfigProvider virtual={false}>{app}</ConfigProvider>,
      element: <MetaCreate resource={resource} />,
    });
    await waitFor(() => view.host.querySelector('[data-testid=meta-form]'));
    return { view, data };
  }

  it('prefills from the answer when it opens and shows the shipper choices with their stock, without a list call', async () => {
    const { view, data } = await open();
    await waitFor(() => inputOf(view.host, 'leaveAt').value);
    expect(setupCalls().map((c) => c.body)).toEqual([{}]);
    // etd = now (the answer's), nothing else to guess without a shipper
    expect(inputOf(view.host, 'leaveAt').value).toBe(dayjs('2026-03-02T08:00:00.000Z').format('YYYY-MM-DD HH:mm:ss'));
    expect(inputOf(view.host, 'arriveAt').value).toBe('');
    await pick(view.host, 'fromId', 'Shanghai Hub — 412 in stock');
    expect(data.of('getList', 'site')).toEqual([]);
    expect(options().map((o) => o.textContent)).toContain('Tokyo Port — 7 in stock');
    // asked again with the shipper: the receiver the only route leads to, eta = etd + 10 h
    await waitFor(
      () => shown(view.host, 'toId') === 'Osaka DC',
      3000,
      () => shown(view.host, 'toId'),
    );
    expect(setupCalls().map((c) => c.body)).toEqual([{}, { fromId: 1 }]);
    expect(shown(view.host, 'fromId')).toBe('Shanghai Hub — 412 in stock');
    expect(inputOf(view.host, 'arriveAt').value).toBe(dayjs('2026-03-02T18:00:00.000Z').format('YYYY-MM-DD HH:mm:ss'));
  });

  it("never overwrites what the user chose; a default that no longer applies goes; a late answer doesn't undo a newer one", async () => {
    const { view } = await open();
    await waitFor(() => inputOf(view.host, 'leaveAt').value);
    await pick(view.host, 'fromId', 'Shanghai Hub — 412 in stock');
    await waitFor(() => inputOf(view.host, 'arriveAt').value);
    // the user picks another receiver: no route, so the eta the first answer gave goes
    await pick(view.host, 'toId', 'Tokyo Port');
    await waitFor(() => inputOf(view.host, 'arriveAt').value === '');
    expect(setupCalls().at(-1)!.body).toEqual({ fromId: 1, toId: 3 });
    expect(shown(view.host, 'toId')).toBe('Tokyo Port');

    // back to Osaka, but that answer is slow and the user changes the shipper meanwhile
    holdNext = true;
    await pick(view.host, 'toId', 'Osaka DC');
    await waitFor(() => hold.length === 1);
    await pick(view.host, 'fromId', 'Tokyo Port — 7 in stock');
    await waitFor(() => setupCalls().length === 5);
    await settle(100);
    // the late answer (Shanghai → Osaka: an eta) arrives last and is dropped
    await act(async () => hold[0]());
    await settle(100);
    expect(inputOf(view.host, 'arriveAt').value).toBe('');
    expect(shown(view.host, 'fromId')).toBe('Tokyo Port — 7 in stock');
    expect(shown(view.host, 'toId')).toBe('Osaka DC');
  });

  it('shows a defaulted ref by the label the answer gave, before its picker searched, and the lines the source gives', async () => {
    calls = stubApi(() => ({ defaults: { fromId: 3, toId: 2, mode: 20 }, labels: { fromIdLabel: 'Tokyo Port', toIdLabel: 'Osaka DC' }, lines: 6 }));
    const data = fakeData({ site: SITES });
    const view = await mount({ path: `${receipt.route}/create`, meta, dataProvider: data.provider, element: <MetaCreate resource={receipt} /> });
    await waitFor(
      () => shown(view.host, 'toId') === 'Osaka DC',
      3000,
      () => shown(view.host, 'toId'),
    );
    expect(shown(view.host, 'fromId')).toBe('Tokyo Port');
    expect(data.of('getList', 'site')).toEqual([]);
    // the source's lines the document takes on save are announced on the form
    const note = await waitFor(() => view.host.querySelector('[data-testid=document-source-lines]'));
    expect(note.textContent).toBe("6 lines of the chosen Shipper become this document's lines when it is saved");
  });

  it('works the same on a record form (no lines)', async () => {
    const { view } = await open(visit);
    await waitFor(() => inputOf(view.host, 'leaveAt').value);
    expect(view.host.querySelector('[data-testid=document-form]')).toBeNull();
    await pick(view.host, 'fromId', 'Shanghai Hub — 412 in stock');
    await waitFor(
      () => shown(view.host, 'toId') === 'Osaka DC',
      3000,
      () => shown(view.host, 'toId'),
    );
    expect(setupCalls('/visit/setup').map((c) => c.body)).toEqual([{}, { fromId: 1 }]);
    expect(inputOf(view.host, 'arriveAt').value).toBe(dayjs('2026-03-02T18:00:00.000Z').format('YYYY-MM-DD HH:mm:ss'));
  });
});
