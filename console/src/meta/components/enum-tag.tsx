import { Tag } from 'antd';
import type { FC } from 'react';
import { findEnumValue } from '../lib/format';
import { useEnums, useMetaT } from '../hooks/use-meta';

/** One enumeration value as a coloured tag (colour from enums.json). */
export const EnumTag: FC<{ enum: string | undefined; value: unknown }> = ({ enum: name, value }) => {
  const enums = useEnums();
  const { t } = useMetaT();
  if (value === undefined || value === null || value === '') return null;
  const e = findEnumValue(enums, name, value);
  if (!e) return <Tag>{String(value)}</Tag>;
  return (
    <Tag color={e.color && e.color !== 'default' ? e.color : undefined} style={{ marginInlineEnd: 4 }}>
      {t(e.label)}
    </Tag>
  );
};
