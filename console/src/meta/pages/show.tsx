import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Show } from '@refinedev/antd';
import { useDelete, useInvalidate, useShow } from '@refinedev/core';
import { Button, Card, Descriptions, Popconfirm, Space, Tooltip, type DescriptionsProps } from 'antd';
import { Suspense, useCallback, useMemo, useState, type FC } from 'react';
import { useNavigate, useParams } from 'react-router';
import { resourceLabelKey, type FieldDef, type ResourceDef } from '@rti/metadata/browser';
import { groupFields, showFields } from '../lib/fields';
import { formatDate } from '../lib/format';
import { deleteForbidden, editForbidden } from '../lib/status-rules';
import { routeId } from '../lib/resource-calls';
import { useMetaT } from '../hooks/use-meta';
import { useResourceAccess } from '../hooks/use-resource-access';
import { FieldRenderer } from '../components/field-renderer';
import { NavButton, editPath } from '../components/row-actions';
import { StatusAction } from '../components/status-action';
import { TransitionButtons } from '../components/transition-actions';
import { useTransitions } from '../hooks/use-transitions';
import { ChildrenSections } from '../components/children-section';
import { DetailTimeline } from '../components/record-timeline';
import { PublicLinkButton } from '../components/public-link';
import { PrintButton } from '../components/print-button';
import { deleteQuestion, recordName } from '../lib/record-name';
import { useRowActions } from '../hooks/use-row-actions';
import { Zone, useZone } from '../components/zone';
import { ScanPanel } from '../components/scan-panel';
import { zoneName } from '../../lib/zones';
import type { ZoneProps } from '../../plugin-contract';

const WIDE = new Set<FieldDef['type']>(['text', 'json', 'permissions', 'image', 'file']);
const COLUMNS = { xs: 1, sm: 1, md: 2, lg: 2, xl: 3, xxl: 3 };

/** Detail screen of any resource: descriptions grouped like the form. */
export const MetaShow: FC<{ resource: ResourceDef }> = ({ resource }) => {
  const { t, fieldLabel, groupTitle } = useMetaT();
  const params = useParams();
  const id = routeId(params.id);
  const navigate = useNavigate();
  const access = useResourceAccess(resource);
  // once deleted, the record is not asked for again (Refine drops its cached row on success,
  // which would refetch it while this page is still mounted: a 404 in the error log)
  const [deleted, setDeleted] = useState(false);
  const { query } = useShow({ resource: resource.name, id, queryOptions: { enabled: !deleted } });
  const record = query.data?.data as Record<string, unknown> | undefined;
  const groups = useMemo(() => groupFields(showFields(resource)), [resource]);
  const label = t(resourceLabelKey(resource));
  const { mutateAsync: deleteOne, mutation } = useDelete();
  // plugins' actions for this record (e.g. the map's "Show on map" / "Track history")
  const extra = useRowActions(resource.name, 'detail');
  const steps = useTransitions(resource);
  const invalidate = useInvalidate();
  // a step, a status change or a plugin's action may change the lines too (a release ships
  // every line): the record and its line tables are read again
  const refetch = query.refetch;
  const refresh = useCallback(() => {
    void refetch();
    for (const c of resource.children ?? []) void invalidate({ resource: c.resource, invalidates: ['list'] });
  }, [refetch, resource.children, invalidate]);
  const before = useZone<ZoneProps>(zoneName(resource.name, 'show.before'), record);
  const after = useZone<ZoneProps>(zoneName(resource.name, 'show.after'), record);

  const items = (fields: FieldDef[]): DescriptionsProps['items'] =>
    fields.map((f) => ({
      key: f.name,
      label: fieldLabel(f),
      span: WIDE.has(f.type) ? 'filled' : 1,
      children: record ? <FieldRenderer field={f} record={record} variant="detail" /> : null,
    }));

  const stamps: DescriptionsProps['items'] = record
    ? [
        { key: 'createdAt', label: t('meta.createdAt'), children: formatDate(record.createdAt, true) || '-' },
        { key: 'updatedAt', label: t('meta.updatedAt'), children: formatDate(record.updatedAt, true) || '-' },
      ]
    : [];

  const noEdit = editForbidden(resource, record);
  const noDelete = deleteForbidden(resource, record);

  const buttons = (
    <Space wrap>
      {access.edit &&
        id !== undefined &&
        (noEdit ? (
          <Tooltip title={t(noEdit.message)}>
            <Button icon={<EditOutlined />} disabled>
              {t('meta.edit')}
            </Button>
          </Tooltip>
        ) : (
          <NavButton to={editPath(resource, id)} icon={<EditOutlined />} testId="meta-show-edit" size="middle" type="default">
            {t('meta.edit')}
          </NavButton>
        ))}
      {access.status && record && <StatusAction resource={resource} record={record} onChanged={refresh} size="middle" />}
      {record && steps.length > 0 && <TransitionButtons resource={resource} record={record} steps={steps} onChanged={refresh} size="middle" />}
      {record && id !== undefined && <PublicLinkButton resource={resource} id={id} title={recordName(resource, record)} />}
      {record && id !== undefined && <PrintButton resource={resource} id={id} title={recordName(resource, record)} />}
      {record &&
        extra.map(({ id: key, Component }) => (
          <Suspense key={key} fallback={null}>
            <Component resource={resource} record={record} onChanged={refresh} />
          </Suspense>
        ))}
      {access.delete && id !== undefined && (
        <Popconfirm
          title={deleteQuestion(t, resource, record)}
          description={t('meta.deleteConfirm')}
          okText={t('meta.delete')}
          cancelText={t('meta.cancel')}
          okButtonProps={{ danger: true, loading: mutation.isPending }}
          disabled={Boolean(noDelete)}
          // antd awaits a promise onConfirm returns (OK button loading, closes when settled) though
          // its type says void; this one never rejects (caught below)
          // eslint-disable-next-line @typescript-eslint/no-misused-promises
          onConfirm={() => {
            setDeleted(true);
            return deleteOne({
              resource: resource.name,
              id,
              successNotification: () => ({ type: 'success', message: t('meta.deleted') }),
              errorNotification: (error) => ({ type: 'error', message: t('meta.deleteFailed'), description: error?.message }),
            })
              .then(() => navigate(resource.route))
              .catch(() => setDeleted(false));
          }}
        >
          <Tooltip title={noDelete ? t(noDelete.message) : undefined}>
            <Button danger icon={<DeleteOutlined />} disabled={Boolean(noDelete)} data-testid="meta-show-delete">
              {t('meta.delete')}
            </Button>
          </Tooltip>
        </Popconfirm>
      )}
    </Space>
  );

  return (
    <Show
      breadcrumb={false}
      resource={resource.name}
      recordItemId={id}
      title={t('meta.detailTitle', { resource: label })}
      isLoading={query.isLoading}
      headerButtons={buttons}
    >
      {/* lines taken by scanning (a receiver with a scanner, often on a phone, starts here) */}
      {record &&
        resource.children
          ?.filter((c) => c.scan)
          .map((c) => (
            <div key={c.resource} style={{ marginBottom: 16 }}>
              <ScanPanel header={resource} child={c} record={record} refresh={refresh} />
            </div>
          ))}
      {record && (
        <Zone
          name={zoneName(resource.name, 'show.before')}
          components={before}
          props={{ resource, record, refresh }}
          wrap={(c) => <div style={{ marginBottom: 16 }}>{c}</div>}
        />
      )}
      <div data-testid="meta-show">
        {groups.map((g, i) => {
          const list = <Descriptions bordered size="small" column={COLUMNS} items={[...(items(g.fields) ?? []), ...(i === groups.length - 1 ? stamps : [])]} />;
          return groups.length > 1 ? (
            <Card key={g.key} type="inner" size="small" title={groupTitle(g.key)} style={{ marginBottom: 16 }}>
              {list}
            </Card>
          ) : (
            <div key={g.key}>{list}</div>
          );
        })}
      </div>
      {record && (
        <Zone
          name={zoneName(resource.name, 'show.after')}
          components={after}
          props={{ resource, record, refresh }}
          wrap={(c) => <div style={{ marginTop: 16 }}>{c}</div>}
        />
      )}
      {record && id !== undefined && resource.children?.length ? (
        <ChildrenSections
          parent={resource}
          parentId={id}
          record={record}
          readOnly={Boolean(noEdit)}
          editTo={access.edit && !noEdit ? editPath(resource, id) : undefined}
          onChanged={refresh}
        />
      ) : null}
      {/* who ran which step when (a resource with steps), read again after each step */}
      {record && <DetailTimeline resource={resource} id={id} version={record.updatedAt} />}
    </Show>
  );
};

export default MetaShow;
