/**
 * Generic metadata screens: every resource's list, create, edit and detail screens, plus the
 * building blocks plugins reuse. UI strings live under `meta.*` in ./locales/<lng>.json.
 *
 * Test hooks (data-testid): meta-search-form, meta-search-submit, meta-search-reset,
 * meta-search-toggle, meta-table, meta-row-actions, meta-row-show, meta-row-edit,
 * meta-row-delete, meta-delete-ok, meta-row-status, meta-column-chooser, meta-column-<field>,
 * meta-columns-reset, meta-density, meta-reload, meta-create, meta-export, meta-form,
 * meta-save, meta-show, meta-show-edit, meta-show-delete, permissions-input, meta-import,
 * meta-import-dialog (data-phase), meta-import-template, meta-import-result, meta-import-success,
 * meta-import-failed, meta-import-errors, meta-group-row, resource-picker, picker-ok, picker-count,
 * quantity-picker, quantity-picker-add, children-<resource>, child-add, child-save, child-row-edit,
 * child-row-delete, child-delete-ok, refs-picker-<field>.
 */
export { MetaList } from './pages/list';
export { MetaCreate } from './pages/create';
export { MetaEdit } from './pages/edit';
export { MetaShow } from './pages/show';
export { MetaForm } from './components/meta-form';
export { FieldRenderer, renderFieldValue } from './components/field-renderer';
export { FieldInput, useEnumOptions } from './components/field-input';
export { EnumTag, enumTag } from './components/enum-tag';
export { RefSelect } from './components/ref-select';
// UploadInput (./components/upload-input) and PermissionsInput (./components/permissions-input)
// are imported from their files so they stay in their own lazily loaded chunks.
export { SearchForm } from './components/search-form';
export { ExportButton } from './components/export-button';
export { ImportButton, ImportDialog } from './components/import-dialog';
export { ResourcePicker, PICKER_PAGE_SIZE, type ResourcePickerProps } from './components/resource-picker';
export { QuantityPicker, type QuantityPickerProps } from './components/quantity-picker';
export { ChildrenSections } from './components/children-section';
export { QUANTITY_MIN, QUANTITY_DEFAULT, normalizeQuantity, type QuantityLine } from './lib/quantity';
export { buildTree } from './lib/tree';
export { useResourceAccess } from './hooks/use-resource-access';
export { formatFieldText, formatDate, DATE_FORMAT, DATETIME_FORMAT } from './lib/format';
// routes/preload-page.ts: a list opened straight from the address bar asks for its first page early
export { startEarlyList } from './lib/early-list';
