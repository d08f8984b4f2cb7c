import type { FC } from 'react';
import type { ResourceDef } from '@rti/metadata/browser';
import { MetaFormPage } from './form-page';

/** Edit screen of any resource, generated from its metadata. */
export const MetaEdit: FC<{ resource: ResourceDef }> = ({ resource }) => <MetaFormPage resource={resource} mode="edit" />;

export default MetaEdit;
