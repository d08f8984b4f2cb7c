/**
 * The REST API's OpenAPI 3 document, generated from the metadata (every resource, its fields,
 * filters, sorts and enabled operations), and a self-contained page that renders it (no CDN).
 */
import { fieldLabelKey, resourceLabelKey, type FieldDef, type ResourceDef } from '@rti/metadata';
import type { PluginServerContext } from '@rti/server/plugin-api';
import { REST_MAX_PAGE, REST_PREFIX } from './rest';

type Schema = Record<string, unknown>;

function fieldSchema(f: FieldDef, enums: Record<string, unknown>, label: string): Schema {
  const base: Schema = { description: label };
  switch (f.type) {
    case 'int':
      return { ...base, type: 'integer', ...(f.min !== undefined ? { minimum: f.min } : {}), ...(f.max !== undefined ? { maximum: f.max } : {}) };
    case 'ref':
      return { ...base, type: 'integer', description: `${label} (id of ${f.ref?.resource ?? 'a record'})` };
    case 'decimal':
      return { ...base, type: 'number', ...(f.min !== undefined ? { minimum: f.min } : {}), ...(f.max !== undefined ? { maximum: f.max } : {}) };
    case 'bool':
      return { ...base, type: 'boolean' };
    case 'date':
      return { ...base, type: 'string', format: 'date' };
    case 'datetime':
      return { ...base, type: 'string', format: 'date-time' };
    case 'enum': {
      const values = enumValues(enums, f.enum);
      return {
        ...base,
        ...(values.length && typeof values[0] === 'number' ? { type: 'integer' } : { type: 'string' }),
        ...(values.length ? { enum: values } : {}),
      };
    }
    case 'enums':
      return { ...base, type: 'array', items: { enum: enumValues(enums, f.enum) } };
    case 'refs':
      return { ...base, type: 'array', items: { type: 'integer' } };
    case 'lnglat':
      return { ...base, type: 'array', items: { type: 'number' }, minItems: 2, maxItems: 2 };
    case 'json':
    case 'image':
    case 'file':
    case 'permissions':
      return { ...base };
    default:
      return { ...base, type: 'string', maxLength: f.maxLength ?? (f.type === 'text' ? 65536 : 255), ...(f.minLength ? { minLength: f.minLength } : {}) };
  }
}

function enumValues(enums: Record<string, unknown>, name: string | undefined): Array<string | number> {
  const e = name ? enums[name] : undefined;
  return Array.isArray(e) ? e.map((v: { value: string | number }) => v.value) : [];
}

const enabled = (res: ResourceDef, call: 'list' | 'base' | 'create' | 'update' | 'delete') => res.calls?.[call] !== false;

export function openApiDocument(ctx: Pick<PluginServerContext, 'metadata' | 't'>): Schema {
  const { metadata } = ctx;
  const en = (key: string) => ctx.t('en-US', key);
  const enums = metadata.enums as unknown as Record<string, unknown>;
  const paths: Record<string, Schema> = {};
  const schemas: Record<string, Schema> = {
    Error: {
      type: 'object',
      properties: {
        code: { type: 'integer', description: 'docs/API.md codes (10001 validation, 10002 not found, …)' },
        message: { type: 'string', description: 'in the language of Accept-Language' },
        data: { nullable: true },
      },
    },
  };
  const errors = (...codes: number[]) =>
    Object.fromEntries(
      codes.map((c) => [
        String(c),
        {
          description:
            {
              400: 'bad parameters or body',
              401: 'missing, expired or revoked token',
              403: 'the token may not make this call',
              404: 'no such record in your organisation',
              409: 'duplicate or refused in the current status',
              413: 'body too large',
              422: 'validation failed (the message names the field)',
              429: 'rate limit of the token reached (Retry-After)',
            }[c] ?? String(c),
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      ]),
    );
  for (const res of Object.values(metadata.resources).sort((a, b) => a.name.localeCompare(b.name))) {
    const name = res.name;
    const label = en(resourceLabelKey(res));
    const visible = res.fields.filter((f) => !f.writeOnly && f.type !== 'password');
    const writable = res.fields.filter((f) => !f.readOnly);
    const props = (list: FieldDef[]) => Object.fromEntries(list.map((f) => [f.name, fieldSchema(f, enums, en(fieldLabelKey(f)))]));
    schemas[name] = {
      type: 'object',
      description: label,
      properties: {
        id: { type: 'integer' },
        ...(res.orgScoped || res.orgField ? { orgId: { type: 'integer' } } : {}),
        ...props(visible),
        createdAt: { type: 'string', format: 'date-time' },
        updatedAt: { type: 'string', format: 'date-time' },
      },
    };
    schemas[`${name}.write`] = {
      type: 'object',
      additionalProperties: false,
      properties: props(writable),
      required: writable.filter((f) => f.required).map((f) => f.name),
    };
    const tag = [name];
    const filters = res.fields
      .filter((f) => f.search && !f.writeOnly && f.type !== 'password')
      .flatMap((f) => {
        const l = en(fieldLabelKey(f));
        const one = (suffix: string, what: string) => ({
          name: `${f.name}${suffix}`,
          in: 'query',
          required: false,
          description: `${l}: ${what}`,
          schema: { type: 'string' },
        });
        switch (f.search) {
          case 'like':
            return [one('', 'contains'), one('_like', 'contains')];
          case 'prefix':
            return [one('', 'starts with'), one('_like', 'starts with')];
          case 'range':
            return [one('', 'equals'), one('_gte', 'from (inclusive)'), one('_lte', 'to (inclusive)')];
          case 'in':
            return [{ ...one('', 'one of (repeat the parameter)'), schema: { type: 'array', items: { type: 'string' } }, style: 'form', explode: true }];
          default:
            return [one('', 'equals')];
        }
      });
    const sortable = [
      'id',
      ...res.fields.filter((f) => (f.search || (typeof f.list === 'object' && f.list?.sortable)) && !f.writeOnly && f.type !== 'password').map((f) => f.name),
    ];
    const collection: Schema = {};
    if (enabled(res, 'list'))
      collection.get = {
        tags: tag,
        summary: `List ${label}`,
        parameters: [
          { name: '_start', in: 'query', schema: { type: 'integer', minimum: 0, default: 0 }, description: 'first row (0-based)' },
          {
            name: '_end',
            in: 'query',
            schema: { type: 'integer', minimum: 1 },
            description: `row after the last (default _start + 10; at most ${REST_MAX_PAGE} rows)`,
          },
          { name: '_sort', in: 'query', schema: { type: 'string' }, description: `comma-separated fields: ${sortable.join(', ')}` },
          { name: '_order', in: 'query', schema: { type: 'string' }, description: 'asc or desc per _sort field' },
          {
            name: 'id',
            in: 'query',
            schema: { type: 'array', items: { type: 'integer' } },
            style: 'form',
            explode: true,
            description: 'these ids only (rows not in your organisation are left out)',
          },
          ...filters,
        ],
        responses: {
          200: {
            description: 'the page',
            headers: {
              'X-Total-Count': { schema: { type: 'integer' }, description: 'matching rows (exact up to 10,000; X-Total-Count-Capped: true past that)' },
            },
            content: { 'application/json': { schema: { type: 'array', items: { $ref: `#/components/schemas/${name}` } } } },
          },
          ...errors(400, 401, 403, 429),
        },
      };
    if (enabled(res, 'create'))
      collection.post = {
        tags: tag,
        summary: `Create ${label}`,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}.write` } } } },
        responses: {
          201: { description: 'created', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
          ...errors(400, 401, 403, 409, 413, 422, 429),
        },
      };
    if (Object.keys(collection).length) paths[`/${name}`] = collection;
    const item: Schema = { parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'integer' } }] };
    if (enabled(res, 'base'))
      item.get = {
        tags: tag,
        summary: `One ${label}`,
        responses: {
          200: { description: 'the row', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
          ...errors(401, 403, 404, 429),
        },
      };
    if (enabled(res, 'update'))
      item.patch = {
        tags: tag,
        summary: `Change ${label} (the fields sent)`,
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}.write` } } } },
        responses: {
          200: { description: 'the changed row', content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } },
          ...errors(400, 401, 403, 404, 409, 413, 422, 429),
        },
      };
    if (enabled(res, 'delete'))
      item.delete = { tags: tag, summary: `Delete ${label}`, responses: { 200: { description: 'deleted: { id }' }, ...errors(401, 403, 404, 409, 429) } };
    if (Object.keys(item).length > 1) paths[`/${name}/{id}`] = item;
  }
  return {
    openapi: '3.0.3',
    info: {
      title: 'RTI Console REST API',
      version: '1',
      description:
        'Every resource of the metadata, scoped to the organisation of the token. Authenticate with `Authorization: Bearer <token>` (a named API token or the organisation token from the Open API screen). ' +
        'Messages follow Accept-Language (en-US, zh-CN, ja-JP). Webhooks: deliveries are POSTed with X-RTI-Event, X-RTI-Delivery, X-RTI-Timestamp and X-RTI-Signature `t=<ms>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>` (docs/API.md "Webhooks").',
    },
    servers: [{ url: REST_PREFIX }],
    security: [{ bearer: [] }],
    paths,
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, schemas },
  };
}

/** A self-contained page rendering ./openapi.json: operations by resource, parameters, fields. */
export function docsPage(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>RTI Console REST API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:14px/1.5 system-ui,-apple-system,'Segoe UI',sans-serif;margin:0;color:#1f2328;background:#f6f8fa}
header{background:#0b3d91;color:#fff;padding:16px 24px}header h1{margin:0;font-size:20px}
main{display:flex;gap:16px;padding:16px 24px}nav{width:240px;flex:none;position:sticky;top:8px;align-self:flex-start;max-height:95vh;overflow:auto}
nav input{width:100%;box-sizing:border-box;padding:6px;margin-bottom:8px}nav a{display:block;color:#0b3d91;text-decoration:none;padding:2px 0}
section{background:#fff;border:1px solid #d0d7de;border-radius:6px;padding:12px 16px;margin-bottom:16px}
.op{border-top:1px solid #eee;padding:8px 0}.m{display:inline-block;min-width:64px;font-weight:600;font-family:monospace}
.get{color:#1a7f37}.post{color:#0969da}.patch{color:#9a6700}.delete{color:#cf222e}code{background:#eff1f3;padding:1px 4px;border-radius:4px}
table{border-collapse:collapse;width:100%;margin:4px 0}td,th{border:1px solid #eee;padding:2px 6px;text-align:left;vertical-align:top}pre{background:#eff1f3;padding:8px;overflow:auto}
</style></head><body>
<header><h1>RTI Console REST API</h1><div id="desc"></div></header>
<main><nav><input id="q" placeholder="Filter resources" aria-label="Filter resources"><div id="toc"></div></nav><div id="body" style="flex:1">Loading…</div></main>
<script>
const esc=(s)=>String(s??'').replace(/[&<>"]/g,(c)=>({'&':'&amp;','<':'&lt;','>':'&gt;','"':'&quot;'}[c]));
fetch('openapi.json').then(r=>r.json()).then((doc)=>{
  document.getElementById('desc').textContent=doc.info.description;
  const byTag={};
  for(const [p,item] of Object.entries(doc.paths))for(const m of ['get','post','patch','delete'])if(item[m]){const t=item[m].tags[0];(byTag[t]=byTag[t]||[]).push({p,m,op:item[m],item});}
  const base=location.origin+doc.servers[0].url;
  const html=[];const toc=[];
  for(const t of Object.keys(byTag).sort()){
    const s=doc.components.schemas[t];
    toc.push('<a href="#r-'+esc(t)+'" data-t="'+esc(t)+'">'+esc(t)+'</a>');
    let h='<section id="r-'+esc(t)+'" data-t="'+esc(t)+'"><h2>'+esc(t)+' <small>'+esc(s&&s.description)+'</small></h2>';
    for(const {p,m,op,item} of byTag[t]){
      h+='<div class="op"><span class="m '+m+'">'+m.toUpperCase()+'</span> <code>'+esc(doc.servers[0].url+p)+'</code> — '+esc(op.summary);
      const ps=[...(item.parameters||[]),...(op.parameters||[])];
      if(ps.length)h+='<table><tr><th>parameter</th><th>in</th><th>meaning</th></tr>'+ps.map(x=>'<tr><td><code>'+esc(x.name)+'</code></td><td>'+esc(x.in)+'</td><td>'+esc(x.description)+'</td></tr>').join('')+'</table>';
      h+='<div>answers: '+Object.keys(op.responses).map(esc).join(', ')+'</div></div>';
    }
    if(s){h+='<details><summary>fields</summary><table><tr><th>field</th><th>type</th><th>meaning</th></tr>'+Object.entries(s.properties).map(([k,v])=>'<tr><td><code>'+esc(k)+'</code></td><td>'+esc(v.type||'json')+(v.enum?' '+esc(v.enum.join(' | ')):'')+'</td><td>'+esc(v.description)+'</td></tr>').join('')+'</table></details>';}
    h+='<pre>curl -H "Authorization: Bearer $TOKEN" "'+esc(base)+'/'+esc(t)+'?_start=0&amp;_end=10"</pre></section>';
    html.push(h);
  }
  document.getElementById('toc').innerHTML=toc.join('');
  document.getElementById('body').innerHTML=html.join('');
  document.getElementById('q').addEventListener('input',(e)=>{const q=e.target.value.toLowerCase();for(const el of document.querySelectorAll('[data-t]'))el.style.display=el.dataset.t.includes(q)?'':'none';});
}).catch((e)=>{document.getElementById('body').textContent='The API description could not be read: '+e;});
</script></body></html>`;
}
