import { Tag } from 'antd';
import type { FC, ReactNode } from 'react';
import type { EnumsFile } from '@rti/metadata/browser';
import { findEnumValue, type Translate } from '../lib/format';
import { useEnums, useMetaT } from '../hooks/use-meta';

/** One enumeration value as a coloured tag (colour from enums.json); hook-free for table cells. */
export function enumTag(enums: EnumsFile, t: Translate, name: string | undefined, value: unknown, key?: string): ReactNode {
  if (value === undefined || value === null || value === '') return null;
  const e = findEnumValue(enums, name, value);
  if (!e) return <Tag key={key}>{String(value)}</Tag>;
  return (
    <Tag key={key} color={e.color && e.color !== 'default' ? e.color : undefined} style={{ marginInlineEnd: 4 }}>
      {t(e.label)}
    </Tag>
  );
}

export const EnumTag: FC<{ enum: string | undefined; value: unknown }> = ({ enum: name, value }) => {
  const enums = useEnums();
  const { t } = useMetaT();
  return <>{enumTag(enums, t, name, value)}</>;
};
