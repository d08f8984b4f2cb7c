/**
 * Console tests run without a server: the metadata's labels (served at run time by
 * /api/metadata/labels) are read from metadata/locales and the plugins' metadata/locales.
 */
import { setLabelSource } from '../../src/i18n';
import { mergeDicts, type Dict } from '../../src/i18n/merge';

const files = import.meta.glob<Dict>(['../../../metadata/locales/*.json', '../../../plugins/*/metadata/locales/*.json'], { eager: true, import: 'default' });

setLabelSource(async (lng) =>
  mergeDicts(
    ...Object.entries(files)
      .filter(([path]) => path.endsWith(`/${lng}.json`))
      .map(([, d]) => d),
  ),
);
