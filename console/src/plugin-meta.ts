/**
 * The generated screens' building blocks for plugins that compose their own page from them
 * (`@rti/console/plugin-meta`): kept apart from plugin-api so a plugin's index, which every
 * page load evaluates, does not pull the form and detail components in.
 */
export { MetaForm, MetaShow } from './meta';
export { formFields } from './meta/lib/fields';
export { fromFormValues, toFormValues } from './meta/lib/form-values';
export { routeId } from './meta/lib/resource-calls';
