import type { EnumsFile, ResourceDef } from '@rti/metadata/browser';

/** A generic resource exercising every field kind the screens handle. */
export const thing: ResourceDef = {
  name: 'thing',
  module: 'things',
  route: '/things/thing',
  orgScoped: true,
  titleField: 'sn',
  defaultSort: '-id',
  fields: [
    { name: 'sn', type: 'string', required: true, maxLength: 64, list: { sortable: true, width: 160 }, search: 'like' },
    { name: 'mac', type: 'string', pattern: 'mac', search: 'eq' },
    { name: 'status', type: 'enum', enum: 'level', search: 'in', readOnly: true },
    { name: 'kinds', type: 'enums', enum: 'level' },
    { name: 'modelId', type: 'ref', ref: { resource: 'model', label: 'name' }, required: true, search: 'eq', form: { group: 'device' } },
    { name: 'startTime', type: 'datetime', search: 'range' },
    { name: 'endTime', type: 'datetime' },
    { name: 'day', type: 'date', search: 'range' },
    { name: 'weight', type: 'decimal', unit: 'kg', min: 0, max: 1000, scale: 1 },
    { name: 'count', type: 'int', min: 1 },
    { name: 'enabled', type: 'bool', default: true },
    { name: 'secret', type: 'password', required: true, pattern: 'password' },
    { name: 'mqttPassword', type: 'string', writeOnly: true, pattern: 'mqttPassword', minLength: 8 },
    { name: 'remark', type: 'text', maxLength: 200 },
    { name: 'settings', type: 'json', list: true },
    { name: 'internal', type: 'string', hidden: true },
    { name: 'note', type: 'string', list: { visible: false }, form: { mode: 'create', span: 24 } },
    { name: 'position', type: 'lnglat', form: false },
  ],
  rules: { compare: [{ kind: 'earlier', left: 'startTime', right: 'endTime' }] },
};

export const enums: EnumsFile = {
  level: [
    { value: 10, label: 'enums.level.low', color: 'success' },
    { value: 20, label: 'enums.level.high', color: 'error' },
  ],
};

/** Translate stand-in that shows the key and its parameters, so tests see what was asked. */
export const t = (key: string, opts?: Record<string, unknown>): string =>
  opts && Object.keys(opts).length
    ? `${key}(${Object.entries(opts)
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(',')})`
    : key;
