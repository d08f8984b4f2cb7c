import { DeleteOutlined, DownOutlined, EditOutlined, EyeOutlined } from '@ant-design/icons';
import { App, Button, Popconfirm, Popover, Space, Tooltip } from 'antd';
import { Suspense, useState, type FC, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { BaseKey } from '@refinedev/core';
import type { ResourceDef } from '@rti/metadata/browser';
import { deleteForbidden, editForbidden } from '../lib/status-rules';
import { deleteQuestion } from '../lib/record-name';
import type { ResourceAccess } from '../hooks/use-resource-access';
import type { Translate } from '../lib/format';
import { StatusAction } from './status-action';
import { TransitionButtons } from './transition-actions';
import { transitionAllowed, type ResolvedTransition } from '@rti/metadata/browser';
import type { ResolvedRowAction } from '../hooks/use-row-actions';

export const detailPath = (res: ResourceDef, id: BaseKey) => `${res.route}/detail/${encodeURIComponent(String(id))}`;
export const editPath = (res: ResourceDef, id: BaseKey) => `${res.route}/edit/${encodeURIComponent(String(id))}`;
export const createPath = (res: ResourceDef) => `${res.route}/create`;

/** A real link (middle-click, open in new tab) that navigates in-app on a plain click. */
export const NavButton: FC<{
  to: string;
  icon?: ReactNode;
  testId?: string;
  children: ReactNode;
  size?: 'small' | 'middle';
  type?: 'link' | 'default' | 'primary';
}> = ({ to, icon, testId, children, size = 'small', type = 'link' }) => {
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
  /** a tablet or phone: Detail and More only, when the actions would not fit NARROW_ACTIONS_WIDTH */
  narrow?: boolean;
}

/** Actions a row shows inline at most before the rest go into "More" (issue 17: a bounded column). */
export const INLINE_ACTIONS = 3;
/** The actions column's width when the actions overflow: Detail, one step, More. */
export const COMPACT_ACTIONS_WIDTH = 290;

/**
 * The actions column's width on a tablet or phone (≤ 992 px): Detail and More. At 290 px the
 * pinned column took 40 % of a tablet's table (issue 23).
 */
export const NARROW_ACTIONS_WIDTH = 150;

/** How many actions a row of this table may offer (column level: the same for every row). */
export function actionCount(access: Pick<ResourceAccess, 'show' | 'edit' | 'delete' | 'status'>, extra: number, steps: number): number {
  return [access.show, access.edit, access.delete, access.status].filter(Boolean).length + extra + steps;
}

/**
 * The actions column's width: the actions side by side while they fit, else Detail, one step and
 * More; `narrow` (tablet, phone): at most NARROW_ACTIONS_WIDTH, Detail and More.
 */
export function actionsWidth(
  access: Pick<ResourceAccess, 'show' | 'edit' | 'delete' | 'status'>,
  extraWidths: number[],
  steps: number,
  narrow = false,
): number {
  const wide = (() => {
    if (actionCount(access, extraWidths.length, steps) > INLINE_ACTIONS) return COMPACT_ACTIONS_WIDTH;
    const full =
      60 +
      70 * [access.show, access.edit, access.delete].filter(Boolean).length +
      (access.status ? 40 : 0) +
      extraWidths.reduce((w, a) => w + a, 0) +
      80 * steps;
    return Math.min(full, COMPACT_ACTIONS_WIDTH);
  })();
  return narrow ? Math.min(wide, NARROW_ACTIONS_WIDTH) : wide;
}

/**
 * Detail / Edit / steps / plugin actions / Delete of one row. Access is decided once per table
 * (props), so rendering a page of rows costs no checks; actions the user may not take are not
 * rendered at all. More than INLINE_ACTIONS of them: Detail and the row's first step stay
 * inline, the others open from "More" (the column keeps a bounded width).
 */
export const RowActions: FC<RowActionsProps> = (props) => {
  const { resource, record, access, extra, steps } = props;
  const allowedSteps = (steps ?? []).filter((s) => transitionAllowed(s, record));
  const compact = actionCount(access, extra?.length ?? 0, steps?.length ?? 0) > INLINE_ACTIONS;
  // narrow and not fitting: Detail inline, everything else under More
  const squeezed =
    Boolean(props.narrow) &&
    actionsWidth(
      access,
      (extra ?? []).map((a) => a.width),
      steps?.length ?? 0,
    ) > NARROW_ACTIONS_WIDTH;
  if (record.id === undefined || record.id === null) return null;
  if (squeezed) return <CompactActions {...props} first={undefined} rest={allowedSteps} lead={undefined} extra={extra} resource={resource} />;
  if (!compact) return <InlineActions {...props} />;
  const [first, ...rest] = allowedSteps;
  // without a step, the resource's own first action (a plugin's) is what the row is for: it stays inline
  const lead = first ? undefined : extra?.[0];
  const others = lead ? extra?.slice(1) : extra;
  return <CompactActions {...props} first={first} rest={rest} lead={lead} extra={others} resource={resource} />;
};

const InlineActions: FC<RowActionsProps> = ({ resource, record, access, t, onDelete, deleting, onChanged, extra, steps }) => {
  const id = record.id!;
  const noEdit = editForbidden(resource, record);
  const noDelete = deleteForbidden(resource, record);
  return (
    <Space size={0} data-testid="meta-row-actions">
      {access.show && <ShowButton resource={resource} id={id} t={t} />}
      {access.edit && <EditButton resource={resource} id={id} t={t} forbidden={noEdit?.message} />}
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
            // antd awaits a promise onConfirm returns (OK button loading, closes when settled) though its type says void
            // eslint-disable-next-line @typescript-eslint/no-misused-promises
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

const ShowButton: FC<{ resource: ResourceDef; id: BaseKey; t: Translate }> = ({ resource, id, t }) => (
  <NavButton to={detailPath(resource, id)} icon={<EyeOutlined />} testId="meta-row-show">
    {t('meta.detail')}
  </NavButton>
);

const EditButton: FC<{ resource: ResourceDef; id: BaseKey; t: Translate; forbidden?: string }> = ({ resource, id, t, forbidden }) =>
  forbidden ? (
    <Tooltip title={t(forbidden)}>
      <Button type="link" size="small" icon={<EditOutlined />} disabled data-testid="meta-row-edit">
        {t('meta.edit')}
      </Button>
    </Tooltip>
  ) : (
    <NavButton to={editPath(resource, id)} icon={<EditOutlined />} testId="meta-row-edit">
      {t('meta.edit')}
    </NavButton>
  );

/** Detail and the row's first step (else its first plugin action) inline; Edit, status, the other steps, plugin actions and Delete under "More". */
const CompactActions: FC<RowActionsProps & { first?: ResolvedTransition; rest: ResolvedTransition[]; lead?: ResolvedRowAction }> = (props) => {
  const { resource, record, access, t, onDelete, deleting, onChanged, extra, first, rest, lead } = props;
  const id = record.id!;
  const { modal } = App.useApp();
  const [open, setOpen] = useState(false);
  const noEdit = editForbidden(resource, record);
  const noDelete = deleteForbidden(resource, record);
  const askDelete = () =>
    void modal.confirm({
      title: deleteQuestion(t, resource, record),
      content: t('meta.deleteConfirm'),
      okText: t('meta.delete'),
      cancelText: t('meta.cancel'),
      okButtonProps: { danger: true, loading: deleting, 'data-testid': 'meta-delete-ok' } as never,
      onOk: () => onDelete(id),
    });
  const more = (
    // a click on an action closes the list; its own dialog (a portal) stays mounted and open
    <Space direction="vertical" size={0} align="start" data-testid="meta-row-more-actions" onClick={() => setOpen(false)}>
      {access.edit && <EditButton resource={resource} id={id} t={t} forbidden={noEdit?.message} />}
      {access.status && <StatusAction resource={resource} record={record} onChanged={onChanged} />}
      {rest.length > 0 && <TransitionButtons resource={resource} record={record} steps={rest} onChanged={onChanged} />}
      {extra?.map(({ id: key, Component }) => (
        <Suspense key={key} fallback={null}>
          <Component resource={resource} record={record} onChanged={onChanged} />
        </Suspense>
      ))}
      {access.delete && (
        <Tooltip title={noDelete ? t(noDelete.message) : undefined}>
          <Button type="link" size="small" danger icon={<DeleteOutlined />} disabled={!!noDelete} onClick={askDelete} data-testid="meta-row-delete">
            {t('meta.delete')}
          </Button>
        </Tooltip>
      )}
    </Space>
  );
  return (
    <Space size={0} data-testid="meta-row-actions">
      {access.show && <ShowButton resource={resource} id={id} t={t} />}
      {first && <TransitionButtons resource={resource} record={record} steps={[first]} onChanged={onChanged} />}
      {lead && (
        <Suspense fallback={null}>
          <lead.Component resource={resource} record={record} onChanged={onChanged} />
        </Suspense>
      )}
      <Popover content={more} trigger="click" placement="bottomRight" open={open} onOpenChange={setOpen}>
        <Button type="link" size="small" data-testid="meta-row-more">
          {t('meta.more')} <DownOutlined />
        </Button>
      </Popover>
    </Space>
  );
};
