import type { FC } from 'react';
import type { ResourceDef } from '@rti/metadata/browser';
import { MetaFormPage } from './form-page';

/** Create screen of any resource, generated from its metadata. */
export const MetaCreate: FC<{ resource: ResourceDef }> = ({ resource }) => <MetaFormPage resource={resource} mode="create" />;

export default MetaCreate;
