import { DeleteOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Space, Tooltip } from 'antd';
import { Suspense, type FC, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { BaseKey } from '@refinedev/core';
import type { ResourceDef } from '@rti/metadata/browser';
import { deleteForbidden, editForbidden } from '../lib/status-rules';
import { deleteQuestion } from '../lib/record-name';
import type { ResourceAccess } from '../hooks/use-resource-access';
import type { Translate } from '../lib/format';
import { StatusAction } from './status-action';
import { TransitionButtons } from './transition-actions';
import type { ResolvedTransition } from '@rti/metadata/browser';
import type { ResolvedRowAction } from '../hooks/use-row-actions';

export const detailPath = (res: ResourceDef, id: BaseKey) => `${res.route}/detail/${encodeURIComponent(String(id))}`;
export const editPath = (res: ResourceDef, id: BaseKey) => `${res.route}/edit/${encodeURIComponent(String(id))}`;
export const createPath = (res: ResourceDef) => `${res.route}/create`;

/** A real link (middle-click, open in new tab) that navigates in-app on a plain click. */
export const NavButton: FC<{ to: string; icon?: ReactNode; testId?: string; children: ReactNode; size?: 'small' | 'middle'; type?: 'link' | 'default' | 'primary' }> = ({
  to,
  icon,
  testId,
  children,
  size = 'small',
  type = 'link',
}) => {
  const navigate = useNavigate();
  return (
    <Button
      type={type}
      size={size}
      icon={icon}
      href={to}
      data-testid={testId}
      onClick={(e) => {
        if (e.button !== 0 || e.ctrlKey || e.metaKey || e.shiftKey || e.altKey) return;
        e.preventDefault();
        void navigate(to);
      }}
    >
      {children}
    </Button>
  );
};

export interface RowActionsProps {
  resource: ResourceDef;
  record: Record<string, unknown> & { id?: BaseKey };
  access: ResourceAccess;
  t: Translate;
  onDelete: (id: BaseKey) => Promise<unknown>;
  deleting?: boolean;
  /** after a status change (or a plugin action changed the row) */
  onChanged: () => void;
  /** plugins' extra actions for this resource (use-row-actions) */
  extra?: ResolvedRowAction[];
  /** workflow steps the user may take (useTransitions); shown when the row's status allows */
  steps?: ResolvedTransition[];
}

/**
 * Detail / Edit / Delete of one row. Access is decided once per table (props), so rendering
 * a page of rows costs no checks; actions the user may not take are not rendered at all.
 */
export const RowActions: FC<RowActionsProps> = ({ resource, record, access, t, onDelete, deleting, onChanged, extra, steps }) => {
  const id = record.id;
  if (id === undefined || id === null) return null;
  const noEdit = editForbidden(resource, record);
  const noDelete = deleteForbidden(resource, record);
  return (
    <Space size={0} data-testid="meta-row-actions">
      {access.show && (
        <NavButton to={detailPath(resource, id)} icon={<EyeOutlined />} testId="meta-row-show">
          {t('meta.detail')}
        </NavButton>
      )}
      {access.edit &&
        (noEdit ? (
          <Tooltip title={t(noEdit.message)}>
            <Button type="link" size="small" icon={<EditOutlined />} disabled data-testid="meta-row-edit">
              {t('meta.edit')}
            </Button>
          </Tooltip>
        ) : (
          <NavButton to={editPath(resource, id)} icon={<EditOutlined />} testId="meta-row-edit">
            {t('meta.edit')}
          </NavButton>
        ))}
      {access.status && <StatusAction resource={resource} record={record} onChanged={onChanged} />}
      {steps && steps.length > 0 && <TransitionButtons resource={resource} record={record} steps={steps} onChanged={onChanged} />}
      {extra?.map(({ id: key, Component }) => (
        <Suspense key={key} fallback={null}>
          <Component resource={resource} record={record} onChanged={onChanged} />
        </Suspense>
      ))}
      {access.delete &&
        (noDelete ? (
          <Tooltip title={t(noDelete.message)}>
            <Button type="link" size="small" danger icon={<DeleteOutlined />} disabled data-testid="meta-row-delete">
              {t('meta.delete')}
            </Button>
          </Tooltip>
        ) : (
          <Popconfirm
            title={deleteQuestion(t, resource, record)}
            description={t('meta.deleteConfirm')}
            okText={t('meta.delete')}
            cancelText={t('meta.cancel')}
            okButtonProps={{ danger: true, loading: deleting, 'data-testid': 'meta-delete-ok' } as never}
            onConfirm={() => onDelete(id)}
          >
            <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid="meta-row-delete">
              {t('meta.delete')}
            </Button>
          </Popconfirm>
        ))}
    </Space>
  );
};
