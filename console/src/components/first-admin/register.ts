/**
 * The organisation create form's "First administrator" (metadata field `firstAdmin`, write-only
 * JSON; docs/ACCESS.md "First administrator"): drawn by its own widget, loaded with the form.
 */
import { lazy } from 'react';
import { registerFieldWidget } from '../../meta/components/field-widgets';

registerFieldWidget(
  { resource: 'organization', name: 'firstAdmin', context: 'form' },
  lazy(() => import('./first-admin-input')),
);
