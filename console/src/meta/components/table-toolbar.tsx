import { ColumnHeightOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Divider, Dropdown, Popover, Space, Tooltip } from 'antd';
import type { SizeType } from 'antd/es/config-provider/SizeContext';
import type { FC } from 'react';
import type { ColumnSpec, ColumnVisibility } from '../lib/columns';
import { useMetaT } from '../hooks/use-meta';

export const ColumnChooser: FC<{
  specs: ColumnSpec[];
  visibility: ColumnVisibility;
  onChange: (key: string, visible: boolean) => void;
  onReset: () => void;
}> = ({ specs, visibility, onChange, onReset }) => {
  const { t, fieldLabel } = useMetaT();
  const shown = specs.filter((s) => visibility[s.key]).length;
  const content = (
    <div style={{ maxHeight: 360, overflowY: 'auto', minWidth: 180 }} data-testid="meta-column-list">
      <Space style={{ width: '100%', justifyContent: 'space-between' }}>
        <Checkbox
          indeterminate={shown > 0 && shown < specs.length}
          checked={shown === specs.length}
          onChange={(e) => specs.forEach((s) => onChange(s.key, e.target.checked))}
        >
          {t('meta.allColumns')}
        </Checkbox>
        <Button type="link" size="small" onClick={onReset} data-testid="meta-columns-reset">
          {t('meta.reset')}
        </Button>
      </Space>
      <Divider style={{ margin: '6px 0' }} />
      <Space direction="vertical" size={4}>
        {specs.map((s) => (
          <Checkbox key={s.key} checked={visibility[s.key]} onChange={(e) => onChange(s.key, e.target.checked)} data-testid={`meta-column-${s.key}`}>
            {fieldLabel(s.field)}
          </Checkbox>
        ))}
      </Space>
    </div>
  );
  return (
    <Popover trigger="click" placement="bottomRight" content={content} title={t('meta.columns')}>
      <Tooltip title={t('meta.columns')}>
        <Button type="text" icon={<SettingOutlined />} aria-label={t('meta.columns')} data-testid="meta-column-chooser" />
      </Tooltip>
    </Popover>
  );
};

export const DensitySwitch: FC<{ value: SizeType; onChange: (v: SizeType) => void }> = ({ value, onChange }) => {
  const { t } = useMetaT();
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [value ?? 'small'],
        onClick: ({ key }) => onChange(key as SizeType),
        items: [
          { key: 'large', label: t('meta.densityLarge') },
          { key: 'middle', label: t('meta.densityMiddle') },
          { key: 'small', label: t('meta.densitySmall') },
        ],
      }}
    >
      <Tooltip title={t('meta.density')}>
        <Button type="text" icon={<ColumnHeightOutlined />} aria-label={t('meta.density')} data-testid="meta-density" />
      </Tooltip>
    </Dropdown>
  );
};

export const ReloadButton: FC<{ onClick: () => void; loading?: boolean }> = ({ onClick, loading }) => {
  const { t } = useMetaT();
  return (
    <Tooltip title={t('meta.refresh')}>
      <Button type="text" icon={<ReloadOutlined spin={loading} />} onClick={onClick} aria-label={t('meta.refresh')} data-testid="meta-reload" />
    </Tooltip>
  );
};
