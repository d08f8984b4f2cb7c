/**
 * The metadata contract. Every domain object is declared once as a ResourceDef JSON file
 * under metadata/resources/<module>/<name>.json; the server derives tables, validation,
 * calls, import/export and permission codes from it, the console derives its screens.
 * Keep this file and schema/resource.schema.json in step.
 */

export type FieldType =
  | 'string' // short text, varchar(maxLength ?? 255)
  | 'text' // long text
  | 'int'
  | 'decimal'
  | 'bool'
  | 'date' // YYYY-MM-DD
  | 'datetime' // stored as DATETIME, sent as epoch milliseconds or ISO string
  | 'enum' // one value of enums.json[enum]
  | 'enums' // several values of enums.json[enum] (JSON array)
  | 'ref' // id of a row of another resource (column named like the field, e.g. deviceModelId)
  | 'refs' // ids of rows of another resource (JSON array)
  | 'image' // uploaded image file name(s)
  | 'file' // uploaded file name(s)
  | 'color' // #RRGGBB
  | 'password' // write-only, hashed at rest with a slow hash
  | 'json' // free JSON (sub-rows, settings)
  | 'lnglat' // [longitude, latitude]
  | 'permissions'; // list of permission codes (JSON array)

/**
 * How a search field filters: `like` = contains (a scan of the organisation's rows: fine for
 * thousands, not for millions); `prefix` = starts with, case-insensitive, answered from an
 * index on every database (codes and serials in large tables: a scanner or a typed beginning).
 */
export type SearchKind = 'eq' | 'like' | 'prefix' | 'range' | 'in';

/** Named patterns; anything else in `pattern` is a regular expression source. */
export type NamedPattern = 'mac' | 'password' | 'mqttPassword' | 'color' | 'email' | 'mobile' | 'code' | 'cron' | 'url' | 'timeZone';

export interface ListHint {
  /** shown in the table by default (false = available in the column chooser only) */
  visible?: boolean;
  width?: number;
  sortable?: boolean;
  fixed?: 'left' | 'right';
  /** column position (lower first); columns without one keep their field order after these */
  order?: number;
}

export interface FormHint {
  /** form section; its title is the i18n key `formGroups.<group>` */
  group?: string;
  /** antd grid span out of 24 (default 12) */
  span?: number;
  /** when the field appears in the form (default both) */
  mode?: 'create' | 'edit' | 'both';
  /** placeholder/help i18n key */
  help?: string;
}

export interface RefTarget {
  resource: string;
  /** field of the target shown as the option label */
  label: string;
  /** extra filter passed to the target's list/all call, e.g. { "category": 10 } */
  filter?: Record<string, unknown>;
  /**
   * What deleting the target row does to rows pointing at it (docs/METADATA.md "References"):
   * restrict (default) refuses the delete while such rows exist, naming how many of which kind;
   * cascade deletes them with it (a header's lines); clear empties the field; keep leaves the id
   * in place (history: logs, alerts, movements record what happened to a row now gone).
   */
  onDelete?: RefOnDelete;
}

export type RefOnDelete = 'restrict' | 'cascade' | 'clear' | 'keep';

export interface FieldDef {
  name: string;
  type: FieldType;
  /** i18n key; default `fields.<name>` */
  label?: string;
  required?: boolean;
  /** uniqueness scope: per organisation or across the whole platform */
  unique?: 'org' | 'global';
  min?: number;
  max?: number;
  minLength?: number;
  maxLength?: number;
  /** decimal places for decimal fields (default 2) */
  scale?: number;
  pattern?: NamedPattern | string;
  /** name of an enumeration in enums.json (enum / enums fields) */
  enum?: string;
  ref?: RefTarget;
  /** unit i18n key suffix, e.g. "m", "minutes", "km" → units.<unit> */
  unit?: string;
  default?: unknown;
  /** never written by create/update calls (set by the system or by status calls) */
  readOnly?: boolean;
  /** accepted on write, never returned (passwords, MQTT passwords) */
  writeOnly?: boolean;
  /** kept in the table but not shown anywhere in the console */
  hidden?: boolean;
  /** create a database index (implied by unique, search and sortable) */
  index?: boolean;
  /** list column hint; false = not a list column at all */
  list?: boolean | ListHint;
  /** search form filter kind; omitted = not searchable */
  search?: SearchKind;
  /** form hint; false = not in forms */
  form?: boolean | FormHint;
  /** shown on the detail screen (default true unless writeOnly/hidden) */
  show?: boolean;
  /**
   * A server text users read (string/text field): the json field named here holds what it says
   * as `{ key, params }` (an i18n key of the server's catalogues and its `{{param}}` values),
   * and the text is rendered from it on every read in the caller's language; a row whose json
   * field is empty shows the stored text as written (docs/METADATA.md "Translated texts").
   */
  textFrom?: string;
  /**
   * A line field that keeps a value of the row a ref field names, as it was when the line was
   * written (a shipping list's serial and carrier code): `of` the ref field, `field` the target's.
   */
  snapshot?: { of: string; field: string };
}

/** Statuses in which an operation is refused; message is an i18n key. */
export interface StatusRule {
  field: string;
  values: Array<string | number>;
  message: string;
}

export interface ResourceRules {
  editForbidden?: StatusRule[];
  deleteForbidden?: StatusRule[];
  /**
   * `<name>/status/update` call that changes one enum field (e.g. useStatus). Create may set
   * the field's initial value; update ignores it, so every later change goes through the
   * status call and its `transitions` (from value → allowed values; a value missing from the
   * keys allows no change; no `transitions` = any change).
   */
  statusUpdate?: { field: string; transitions?: Record<string, Array<string | number>> };
  /** cross-field rules: earlier < later, different places, smaller < bigger */
  compare?: Array<{ kind: 'earlier' | 'smaller' | 'different'; left: string; right: string }>;
}

export interface ImportDef {
  /**
   * key used to detect duplicates in file and in system: one field, or several whose
   * combination must be new (a config row per carrier code and warehouse)
   */
  key: string | string[];
  /** columns in file order (field names) */
  columns: string[];
  /** SPEC §8 error catalogue name in enums.json-like errors (e.g. "carrierImport") */
  errors?: string;
  /**
   * Reason code (a value of the `errors` enum) per column and problem; a problem without a
   * code is reported with the generic validation message instead.
   */
  codes?: Record<string, Partial<Record<ImportProblem, number>>>;
  /**
   * Ref fields filled from file columns holding values of the target's own fields, which
   * together pick the one target row: `{ "routeId": { "from": "fromWarehouseId", "to":
   * "toWarehouseId" } }` (a route by its two warehouses). Lookup columns are listed in
   * `columns`, read like the target field (a ref by its label), required, never written.
   */
  lookups?: Record<string, Record<string, string>>;
}

/**
 * What can be wrong with one cell of an import row: empty while required, wrong type /
 * format / enum / length / range / cross-field rule, a ref label matching no row, the value
 * repeated earlier in the file, or already taken in the system (unique fields).
 */
export type ImportProblem = 'required' | 'invalid' | 'notFound' | 'duplicate' | 'exists';

export interface ChildrenDef {
  /** sub-row resource edited in a drawer editor (or inline, see `inline`) */
  resource: string;
  /** foreign key field on the child pointing at the parent */
  foreignKey: string;
  /**
   * Fields whose combination is unique among the lines of one parent (a carrier appears once
   * per bind order): checked on every line write and backed by a unique index (fk + keys).
   */
  uniqueKeys?: string[];
  /**
   * The lines belong to the header as one document: the header's create and edit screens
   * edit them on the same page, and `<prefix>/save` writes header and lines in one call.
   */
  inline?: boolean;
  /** the lines are deleted with their header (one set-based DELETE in the header's transaction) */
  cascade?: boolean;
  /**
   * Lines may be added, changed or removed only while the header's `field` holds one of
   * `values` (e.g. only while the order is new); `message` is the refusal's i18n key.
   */
  editableWhen?: { field: string; values: Array<string | number>; message?: string };
  /** header fields computed from the lines in the same transaction as every line write */
  rollUps?: RollUpDef[];
  /**
   * Rows the lines point at are visible to whoever sees the header while the header is in
   * these statuses (keys or a status group): a carrier in transit on an open order is seen at
   * both ends of the order, never by a third warehouse (docs/METADATA.md "Document flows").
   */
  grantsScope?: { field: string; while: Array<string | number> | string; lines?: Record<string, Array<string | number>> };
  /**
   * A key (a ref field of the lines) is on at most one document whose status is in `while` (keys
   * or a status group), counting only lines whose fields hold `lines` values: a carrier sits on
   * one open order. Enforced under concurrency; refused with `message` (rules.*) naming the
   * key's titles and the other document, and `reason` as the import's reason code.
   */
  exclusive?: { key: string; while: Array<string | number> | string; lines?: Record<string, Array<string | number>>; message?: string; reason?: number };
  /**
   * Lines added and edited in batches (SPEC's `<line prefix>/batch/add` and `/batch/update`):
   * `keys` names the body list of typed or scanned keys (`"sns"`) matched against `by.key` of
   * the rows `by.field` points at, `ids` the body list of those rows' ids (a picker); `values` the
   * line fields one batch sets on every line it adds or on the chosen lines. Each row is
   * answered with its reason from the line resource's import codes (`import.codes`).
   */
  batch?: { by: { field: string; key: string }; keys?: string; ids?: string; values?: string[]; candidates?: BatchCandidatesDef };
  /**
   * Lines received by scanning a key (`<line prefix>/scan`): `key` is the line field matched
   * against what was scanned, `step` the line step run on the matched lines; `container` a
   * line field whose values select lines as a whole; `extra` the status a scanned key that is
   * not on the document joins it with (found through `by`: the ref field and the target's key).
   */
  scan?: {
    key: string;
    step: string;
    container?: string;
    extra?: string | number;
    by?: { field: string; key: string };
  };
}

/**
 * What a document's lines may be picked from (children `batch.candidates`):
 * `<line prefix>/batch/candidates { <fk>, page, limit, <by.key>?, <narrow>? }` answers rows of
 * the target resource (the `by.field` reference's) in the caller's scope, matching the target's
 * declared `filter`, whose `match.target` equals the header's `match.header`, and free of every
 * document holding them under the children's `exclusive` (and of this document) — the carriers
 * standing in the order's shipper warehouse on no open order. The detail page's "Add by …"
 * offers them in a "Pick" tab, paged by the server, the ticks kept across pages.
 */
export interface BatchCandidatesDef {
  /** a declared filter of the target resource (its `filters`): "inStock" */
  filter?: string;
  /** the target's field that equals the header's field */
  match?: { header: string; target: string };
  /** target ref fields the picker may narrow by (equality) */
  narrow?: string[];
  /** target fields shown beside the key */
  columns?: string[];
}

/** A header field kept equal to an aggregate of its lines: `count` of lines or `sum` of a line field. */
export interface RollUpDef {
  /** header field (int/decimal, readOnly: clients never send it) */
  field: string;
  kind: 'count' | 'sum';
  /** line field summed (sum only) */
  of?: string;
  /** only lines whose fields hold these values (enum keys or values), e.g. { "status": ["missing"] } */
  where?: Record<string, Array<string | number>>;
}

/**
 * A document made from another document (a receipt from a ship order): which source rows may
 * be chosen (statuses, keys or a status group), which header fields come from it (filled in
 * the create form, checked on create), and which source lines it starts with.
 */
export interface SourceDef {
  /** the source resource */
  resource: string;
  /** this resource's ref field naming the source row */
  field: string;
  /** source statuses a new document may be made from (keys, values or a status group name) */
  from: Array<string | number> | string;
  /** the source's status field (default "status") */
  statusField?: string;
  /** this field ← source field: filled from the source, and must agree with it when given */
  header?: Record<string, string>;
  /** the source lines this document starts with */
  lines?: {
    /** this document's line resource (one of its children) */
    child: string;
    /** the source's line resource (one of the source's children) */
    from: string;
    /** which source lines (field → values, enum keys allowed) */
    where?: Record<string, Array<string | number>>;
    /** line field ← source line field */
    copy: Record<string, string>;
    /** values every copied line starts with (enum keys allowed) */
    set?: Record<string, string | number>;
  };
}

/**
 * A printed document (`<prefix>/print { id, <groupBy>?, <perGroup>? }` → PDF): the header's
 * `fields` as label/value pairs, the QR code of its public page when the resource declares
 * `publicLink`, then its lines (the first child, or `child`) as a table — grouped by `groupBy`
 * with a summary of the child's `rollUps` per group, the whole document, one group, or one
 * page run per group — and signature lines. Values print as exports show them (enum labels,
 * reference titles, times in the organisation's zone). The console offers "Print" on the
 * detail page to users holding the call.
 */
export interface PrintDef {
  /** the printed title (a label key): "Delivery note / packing manifest" */
  title: string;
  /** header fields printed as label/value pairs, in order */
  fields: string[];
  /** the printed lines: child resource (default the first child) and its columns */
  lines: {
    resource?: string;
    fields: string[];
    /** a line field grouping the lines (a container number); the call takes it to print one group */
    groupBy?: string;
    /** the call's flag printing one page run per group ("perContainer") */
    perGroup?: string;
    /** header roll-up fields summed per group in the summary table (their `where` applies) */
    rollUps?: string[];
    /** the lines' heading (a label key; default the child resource's label) */
    title?: string;
  };
  /** signature lines at the end (label keys) */
  signatures?: string[];
  /** the hint under the QR code (a label key) */
  scanHint?: string;
}

/**
 * The public one-record link: an unguessable token per record (never an id) that opens `page`
 * without signing in — what a driver or a worker scanning the code on a document or a rack
 * sees. The platform keeps the tokens, answers `page` as a public call ({ token } → what the
 * plugin's reader returns, read in the token's organisation only), throttles it per client
 * address across instances, and adds `<prefix>/info/link` ({ id, renew? } → token and path) for
 * users who may read the record; the console offers the link and its QR code on the detail page.
 */
export interface PublicLinkDef {
  /** the console route of the public page, also its call path: "/info/ship-order" */
  page: string;
  /** lookups per client address and minute (default 30) */
  rate?: number;
}

/**
 * A document number generated per organisation when the create leaves the field empty:
 * `pattern` is literal text with `{date:YYYYMMDD}` (any of YYYY, YY, MM, DD) and `{seq:N}`
 * (the sequence, zero-padded to N digits). The sequence counts per organisation and per
 * rendered prefix, so a dated pattern restarts every day; it is taken in the document's own
 * transaction, so a rolled-back create leaves no gap.
 */
export interface DocumentNumberDef {
  field: string;
  pattern: string;
}

/**
 * One named workflow step (release, deliver, receive, close, cancel, audit, process …): a
 * call `path` (default `<api prefix>/<name in kebab-case>`) with its own permission code, a
 * button on list rows and the detail page, and server hooks (`ctx.transitions.on`) that run in
 * the same transaction as the status change.
 */
export interface TransitionDef {
  /** camelCase step name; the button's label is `transitions.<name>` unless `label` is given */
  name: string;
  /** SPEC's path when it names one, e.g. "/carrier-alert/process" */
  path?: string;
  /**
   * Also reachable through one status call shared by several steps (SPEC's
   * "/delivery/updatestatus"): it takes `{ id | ids, <field>: target }` and runs the step of
   * that path whose `to` is the target, exactly as the step's own call would.
   */
  statusCall?: string;
  label?: string;
  /** the enum field holding the status */
  field: string;
  /**
   * false: the step has no call, button or permission code of its own — only code runs it
   * (`e.run`), as the document's other steps move their lines (a shipping list's line ships
   * when its order or a delivery is released). Its checks, hooks, stamps and log are the same.
   */
  call?: false;
  /** statuses the step starts from */
  from: Array<string | number>;
  /** status after the step */
  to: string | number;
  /**
   * What the caller sends besides `id`/`ids`: a name is a field of this resource the step
   * writes (validated like that field, readOnly allowed); an object is an input of its own
   * (validated the same way, handed to the hooks, not written).
   */
  inputs?: Array<string | FieldDef>;
  /** the console asks before running it, warning that an executed step cannot be undone */
  confirm?: boolean;
  /** shown as a dangerous action (red) */
  danger?: boolean;
  /** fields set by the step: who (a string field gets the user's name, an int/ref field their id) and when */
  stamp?: { user?: string; time?: string };
  /** icon name from @ant-design/icons */
  icon?: string;
  /** a header step that moves its lines too: lines of `child` in `from` go to `to` (keys allowed) */
  lines?: { child: string; field?: string; from: Array<string | number>; to: string | number };
  /** a line step that moves its header: this step of the header runs when the header is in its `from` */
  header?: string;
  /**
   * A line step runs only while its header is in these statuses (values, enum keys or a status
   * group of the header, resolved at load): a shipping list's line ships only while its order
   * is new or released. Otherwise 10004 naming the header, its status and the wanted ones.
   */
  while?: Array<string | number> | string;
  /** the confirm dialog states a count of the row: `message` (i18n key) with {{count}} = row[field] */
  confirmCount?: { field: string; message: string };
  /** who may run the step beyond its own permission code (see TransitionGuard) */
  guard?: TransitionGuard;
}

/**
 * Conditions on the user running a step (M17: the auditor is not the applicant). Refused with
 * 10004 (`notUser`) or 10005 (`permission`) naming the step and the record; nothing is written.
 */
export interface TransitionGuard {
  /** a stamp field of the resource (string = user name, int/ref = user id): the caller must not be the user recorded there */
  notUser?: string;
  /** an extra permission code the caller must hold */
  permission?: string;
}

/**
 * Rows forming a tree: `parentField` holds the `keyField` value of the parent row;
 * `scopeField` (optional) limits keys to rows sharing its value (codes unique per scope).
 */
export interface TreeHint {
  keyField: string;
  parentField: string;
  scopeField?: string;
}

/** Which generated calls a resource answers (default: all true except import). */
export interface CallsDef {
  list?: boolean;
  base?: boolean;
  create?: boolean;
  update?: boolean;
  delete?: boolean;
  all?: boolean;
  export?: boolean;
  /** path used for the single-row call; SPEC uses the bare prefix for most, `get` for some */
  basePath?: '' | 'get';
}

/**
 * One field's choices taken from the defaults call's answer (`answer[from]`, rows with `id`):
 * they replace the field's picker options on the create form. `label` is an i18n key
 * interpolated with the row (`{{name}} — {{inStock}} in stock`); default the ref's label field.
 */
export interface FormChoicesDef {
  from: string;
  label?: string;
}

/**
 * A call the create form asks for what the user has not typed yet (docs/METADATA.md "Form
 * defaults"): on opening and whenever the user changes one of `on`, with `{ <on field>: value }`
 * of the fields the user set. It answers `{ defaults: { <field>: value }, ...lists }`; a default
 * fills a field only while the user has not touched it.
 */
export interface FormDefaultsDef {
  /** the call's path, under the resource's own API prefix (its permission sits under the create screen) */
  call: string;
  /** fields whose change asks again; sent when the user set them */
  on: string[];
  /** ref fields whose options come from the answer */
  choices?: Record<string, FormChoicesDef>;
}

/** Resource-wide behaviour of the generated forms. */
export interface ResourceFormDef {
  defaultsFrom?: FormDefaultsDef;
}

/** A named condition: per field, the values it may hold, or (`not`) those it may not. */
export type FilterDef = Record<string, Array<string | number> | { not: Array<string | number> }>;

export interface ResourceDef {
  /** kebab-case; equals the SPEC §7 API prefix, e.g. "device-beacon" */
  name: string;
  /** menu group key in menu.json (e.g. "device") */
  module: string;
  /** console list route from SPEC §2, e.g. "/device/device-beacon" */
  route: string;
  /** i18n key; default `resources.<name>` */
  label?: string;
  /** rows belong to one organisation (orgId column, scoped by the tenancy layer) */
  orgScoped: boolean;
  /**
   * column that holds the owning organisation when it is not `orgId`; `id` for the
   * organisation resource itself (a user sees only the organisations they belong to)
   */
  orgField?: string;
  /**
   * Field holding the row's warehouse, for warehouse-restricted users; several for rows between
   * warehouses (a transfer: shipper and receiver): a restricted user sees the row when ANY of
   * them is one of the user's warehouses.
   */
  warehouseField?: string | string[];
  /** field used as the row's title (breadcrumb, pickers, palette) */
  titleField: string;
  /**
   * API prefix of the generated calls when SPEC's differs from `/<name>`, e.g. "/log/operation"
   * (→ /log/operation/list) or "/carrier-code/route" for a child resource
   */
  apiPath?: string;
  /** table name override; default snake_case of name */
  table?: string;
  /** icon name from @ant-design/icons */
  icon?: string;
  /** searchable from the command palette by this field (e.g. sn) */
  paletteSearch?: string;
  /** default sort, e.g. "-id" */
  defaultSort?: string;
  /**
   * composite indexes for the list queries people run most (filter + sort), as field names;
   * the organisation column is put in front automatically on org-scoped resources
   */
  indexes?: string[][];
  fields: FieldDef[];
  calls?: CallsDef;
  rules?: ResourceRules;
  import?: ImportDef;
  children?: ChildrenDef[];
  /** the list renders as an expandable tree: rows linked by a parent key column */
  tree?: TreeHint;
  /** the list groups its rows under one header per value of this field (e.g. the warehouseField) */
  listGroupBy?: string;
  /** named workflow steps (see TransitionDef) */
  transitions?: TransitionDef[];
  /**
   * Named sets of the status field's values (`statusField`, default "status"), by enum key:
   * `{ "open": ["new", "released"] }`. A group name stands for its values wherever statuses are
   * declared (transitions' from, source.from, grantsScope.while).
   */
  statusGroups?: Record<string, Array<string | number>>;
  /** the field statusGroups speak of (default "status") */
  statusField?: string;
  /**
   * Named conditions on the rows, by field: `{ "inStock": { "transportStatus": ["inWarehouse",
   * "idle"], "status": { "not": ["scrapped", "lost"] } } }` — a list is "one of these", `not` is
   * "none of these (or empty)"; enum keys or values. One definition every plugin counts with
   * (`declaredFilter` on the server), so a figure means the same on every screen.
   */
  filters?: Record<string, FilterDef>;
  /** made from another document (see SourceDef) */
  source?: SourceDef;
  /** a page anyone holding the record's printed code may open without signing in (see PublicLinkDef) */
  publicLink?: PublicLinkDef;
  /** a printed form of the record and its lines (see PrintDef) */
  print?: PrintDef;
  /** document number generated per organisation (see DocumentNumberDef) */
  number?: DocumentNumberDef;
  /** permission code overrides; default derived from the route and API paths */
  permissions?: Partial<Record<'menu' | 'view' | 'create' | 'edit' | 'detail', string>>;
  /** operation-log object code (SPEC §9) */
  logObject?: number;
  /** the generated create/edit forms' resource-wide behaviour (defaults asked of a call) */
  form?: ResourceFormDef;
}

export interface EnumValue {
  value: number | string;
  /** i18n key, e.g. enums.deviceStatus.online */
  label: string;
  /** antd tag colour (success, error, warning, processing, default, or a CSS colour) */
  color?: string;
}

export type EnumsFile = Record<string, EnumValue[]>;

export interface MenuItem {
  /** absolute console path, SPEC §2 */
  path: string;
  /** i18n key */
  label: string;
  icon?: string;
  /** resource whose list screen this is */
  resource?: string;
  /** page id registered by a plugin */
  page?: string;
  /**
   * API calls (paths) this plugin page's screen makes besides its own plugin's (a plugin's calls
   * belong to the page whose id is the plugin id). The page's View code grants them all
   * (docs/ACCESS.md "Page calls"), so ticking a page is enough to use it.
   */
  calls?: string[];
  /** not shown in the side menu (still a route) */
  hidden?: boolean;
  /** opened outside the layout (standalone) */
  standalone?: boolean;
  /** opens in a new window */
  newWindow?: boolean;
  /** hides the side menu while open */
  hideSider?: boolean;
  /** kept alive while its tab is open */
  cached?: boolean;
  /** reachable without signing in (public info pages) */
  public?: boolean;
  children?: MenuItem[];
}

export interface MenuGroup {
  key: string;
  /** group path prefix, e.g. "/device" (empty for the home group) */
  path: string;
  label: string;
  icon?: string;
  items: MenuItem[];
}

export interface MenuFile {
  groups: MenuGroup[];
}

export interface Metadata {
  resources: Record<string, ResourceDef>;
  enums: EnumsFile;
  menu: MenuFile;
}
