/** `form.defaultsFrom`: what the checks refuse, and the labels it adds to the locale check. */
import { describe, expect, it } from 'vitest';
import { checkLocales, loadLocales, loadMetadata } from '../src/load';
import { metadataLabelKeys } from '../src/labels';
import { edit, faultsOf, scratchCopy } from './helpers';

// the shipping module's folder (plugins/shipping/metadata): faults name the plugin file
const ORDER = 'plugins/shipping/metadata/resources/ship-order.json';
/** the same file from a scratch copy's metadata folder */
const ORDER_FROM_METADATA = `../${ORDER}`;

describe('form defaults', () => {
  it('the ship order form asks /ship-order/setup; its choice label is a metadata label', () => {
    const meta = loadMetadata();
    expect(meta.resources['ship-order'].form?.defaultsFrom).toMatchObject({
      call: '/ship-order/setup',
      on: ['shipperWarehouseId', 'receiverWarehouseId', 'etd'],
    });
    expect(metadataLabelKeys(meta).has('choices.warehouseInStock')).toBe(true);
  });

  it('refuses a call outside the resource, a generated or step call, and fields the create form lacks', () => {
    const faultsWith = (defaultsFrom: unknown) => {
      const dir = scratchCopy();
      edit(dir, ORDER_FROM_METADATA, (r) => {
        r.form = { defaultsFrom };
      });
      return faultsOf(() => loadMetadata(dir)).filter((f) => f.file === ORDER);
    };
    const at = (pointer: string, problem: string) => expect.objectContaining({ file: ORDER, pointer, problem: expect.stringContaining(problem) });

    expect(faultsWith({ call: '/warehouse/setup', on: [] })).toContainEqual(at('/form/defaultsFrom/call', "under the resource's prefix /ship-order/"));
    expect(faultsWith({ call: '/ship-order/list', on: [] })).toContainEqual(at('/form/defaultsFrom/call', 'generated call'));
    expect(faultsWith({ call: '/ship-order/release', on: [] })).toContainEqual(at('/form/defaultsFrom/call', 'the call of a step'));
    // a read-only field, a field out of forms, an unknown one; a choice on a non-ref field
    const bad = faultsWith({
      call: '/ship-order/setup',
      on: ['status', 'atd', 'nope'],
      choices: { etd: { from: 'x' }, shipperWarehouseId: { from: 'shipperWarehouses' } },
    });
    expect(bad).toContainEqual(at('/form/defaultsFrom/on/0', '"status" is not a field of ship-order\'s create form'));
    expect(bad).toContainEqual(at('/form/defaultsFrom/on/1', '"atd"'));
    expect(bad).toContainEqual(at('/form/defaultsFrom/on/2', '"nope"'));
    expect(bad).toContainEqual(at('/form/defaultsFrom/choices/etd', 'not a ref field'));
    expect(bad.some((f) => f.pointer === '/form/defaultsFrom/choices/shipperWarehouseId')).toBe(false);
    // the schema: unknown keys and a malformed path
    expect(faultsWith({ call: 'setup', on: [], extra: 1 }).map((f) => f.pointer)).toEqual(
      expect.arrayContaining(['/form/defaultsFrom/call', '/form/defaultsFrom/extra']),
    );
  });

  it('a choice label missing from a locale is a fault', () => {
    const dir = scratchCopy();
    edit(dir, ORDER_FROM_METADATA, (r) => {
      r.form.defaultsFrom.choices.receiverWarehouseId.label = 'choices.nowhere';
    });
    const faults = checkLocales(loadMetadata(dir), loadLocales(dir)).filter((f) => f.pointer === '/choices/nowhere');
    // a label only the shipping module's metadata uses belongs in its own locale files
    const own = 'plugins/shipping/metadata/locales';
    expect(faults.map((f) => f.file).sort()).toEqual([`${own}/en-US.json`, `${own}/ja-JP.json`, `${own}/zh-CN.json`]);
  });
});
