import { List, useTable } from '@refinedev/antd';
import { useDelete, type BaseKey, type BaseRecord } from '@refinedev/core';
import { Button, Card, Space, Table, type TableColumnType } from 'antd';
import { PlusOutlined } from '@ant-design/icons';
import type { SizeType } from 'antd/es/config-provider/SizeContext';
import { useCallback, useEffect, useMemo, useRef, useState, type FC, type Key } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { resourceLabelKey, type ResourceDef } from '@rti/metadata/browser';
import { columnSpecs, sortOrderOf } from '../lib/columns';
import { searchFields } from '../lib/fields';
import { defaultSorters, filtersToSearch, searchToFilters } from '../lib/filters';
import { useEnums, useMetaT, useUserId } from '../hooks/use-meta';
import { useColumnVisibility } from '../hooks/use-column-visibility';
import { useResourceAccess } from '../hooks/use-resource-access';
import { useRowActions } from '../hooks/use-row-actions';
import { useTransitions } from '../hooks/use-transitions';
import { renderFieldValue } from '../components/field-renderer';
import { SearchForm } from '../components/search-form';
import { ColumnChooser, DensitySwitch, ReloadButton } from '../components/table-toolbar';
import { ExportButton } from '../components/export-button';
import { RowActions, actionsWidth, createPath } from '../components/row-actions';
import { useViewport } from '../../components/layout/use-viewport';
import { ImportButton } from '../components/import-dialog';
import { PageJumper } from '../components/page-jumper';
import { lastPageOf, pageAfterAnswer, pagerTotal } from '../lib/paging';
import { buildTree, parentKeys } from '../lib/tree';
import { earlyQueryOptions, takeArrivedList } from '../lib/early-list';
import { rememberListUrl, takeSaved } from '../lib/list-return';
import { canonical } from '../../providers/early-calls';
import { filtersToBody, sortersToBody } from '../../providers/data-provider';
import { groupRows, groupedTreeData } from '../lib/row-groups';
import { Zone, useZone } from '../components/zone';
import { zoneName } from '../../lib/zones';
import type { ListZoneProps } from '../../plugin-contract';

/** Marks the header rows of a grouped list (they carry no record). */
const isGroupRow = (r: BaseRecord): boolean => typeof r.id === 'string' && r.id.startsWith('group:');

/** how long the row just saved stays highlighted */
const SAVED_HIGHLIGHT_MS = 4000;

/** SPEC §9 page sizes. */
const PAGE_SIZES = [10, 20, 50, 100];
// An early answer that had already arrived became the table's initialData; with Refine 5's useTable that
// left the table's loading overlay on (rows shown, clicks blocked) in the browser tests, so only the
// pending early call is used (the data provider takes it): the list call still starts with the session.
const EARLY_ARRIVED = false;

/** Paged search table of any resource, generated from its metadata. */
export const MetaList: FC<{ resource: ResourceDef }> = ({ resource }) => {
  const { t, fieldLabel } = useMetaT();
  const enums = useEnums();
  const navigate = useNavigate();
  const userId = useUserId();
  const access = useResourceAccess(resource);
  const extraActions = useRowActions(resource.name);
  const steps = useTransitions(resource);
  const toolbar = useZone<ListZoneProps>(zoneName(resource.name, 'list.toolbar'));
  const search = useMemo(() => searchFields(resource), [resource]);
  const specs = useMemo(() => columnSpecs(resource), [resource]);
  const { visibility, set: setColumn, reset: resetColumns } = useColumnVisibility(specs, userId, resource.name);
  const [density, setDensity] = useState<SizeType>('small');

  // opened straight from the address bar, the first page may have arrived already (rows in the first render)
  const { search: query, pathname } = useLocation();
  const [early] = useState(() => (EARLY_ARRIVED ? takeArrivedList(resource, query, PAGE_SIZES[0]) : undefined));
  const { tableProps, searchFormProps, filters, sorters, setFilters, setCurrentPage, tableQuery, currentPage, pageSize } = useTable({
    resource: resource.name,
    pagination: { pageSize: PAGE_SIZES[0] },
    queryOptions: early ? earlyQueryOptions(early) : undefined,
    sorters: { initial: defaultSorters(resource) },
    onSearch: (values) => searchToFilters(search, values as Record<string, unknown>),
  });

  // the early answer was asked for this screen's first request; should the table have asked for another, it asks again
  // (once, on mount: what the table asks for afterwards is its own business)
  const earlyChecked = useRef(false);
  const refetch = tableQuery.refetch;
  useEffect(() => {
    if (earlyChecked.current) return;
    earlyChecked.current = true;
    if (early && canonical(early.body) !== canonical({ ...filtersToBody(filters), ...sortersToBody(sorters), page: currentPage, limit: pageSize }))
      void refetch();
  }, [early, filters, sorters, currentPage, pageSize, refetch]);

  // a save comes back to the list as it is now (filters, sort, page) and highlights the saved row a moment
  useEffect(() => rememberListUrl(resource.name, pathname + query), [resource.name, pathname, query]);
  const [saved, setSaved] = useState(() => takeSaved(resource.name));
  useEffect(() => {
    if (saved === undefined) return;
    const timer = setTimeout(() => setSaved(undefined), SAVED_HIGHLIGHT_MS);
    return () => clearTimeout(timer);
  }, [saved]);

  // filters restored from the URL show up in the form too; only on mount: afterwards the form
  // is the source of the filters
  const formFilled = useRef(false);
  const searchForm = searchFormProps.form;
  useEffect(() => {
    if (formFilled.current) return;
    formFilled.current = true;
    searchForm?.setFieldsValue(filtersToSearch(search, filters) as never);
  }, [searchForm, search, filters]);

  const { mutateAsync: deleteOne, mutation } = useDelete();
  const onDelete = useCallback(
    (id: BaseKey) =>
      deleteOne({
        resource: resource.name,
        id,
        successNotification: () => ({ type: 'success', message: t('meta.deleted') }),
        errorNotification: (error) => ({ type: 'error', message: t('meta.deleteFailed'), description: error?.message }),
      }).catch(() => undefined),
    [deleteOne, resource.name, t],
  );

  // tablet and phone (SPEC §9 breakpoints): the actions column shrinks to Detail and More
  const narrow = useViewport() !== 'desktop';
  const columns = useMemo(() => {
    const cols: TableColumnType<BaseRecord>[] = specs
      .filter((s) => visibility[s.key])
      .map((s) => ({
        key: s.key,
        dataIndex: s.key,
        title: fieldLabel(s.field),
        width: s.width,
        fixed: s.fixed,
        align: s.field.type === 'int' || s.field.type === 'decimal' ? ('right' as const) : undefined,
        ellipsis: s.field.type === 'string' ? { showTitle: true } : undefined,
        sorter: s.sortable || undefined,
        sortOrder: s.sortable ? sortOrderOf(sorters as never, s.key) : undefined,
        render: (_: unknown, record: BaseRecord) => renderFieldValue(s.field, record, 'table', t, enums),
      }));
    if (resource.listGroupBy && cols.length > 0) {
      // a group header row spans the whole table and names its value and row count
      const groupField = resource.fields.find((f) => f.name === resource.listGroupBy);
      const width = () => cols.length; // read at render time, actions column included
      cols.forEach((c, i) => {
        const render = c.render!;
        c.onCell = (r: BaseRecord) => (isGroupRow(r) ? { colSpan: i === 0 ? width() : 0 } : {});
        c.render = (v: unknown, r: BaseRecord, idx: number) =>
          isGroupRow(r) ? (
            i === 0 ? (
              <strong data-testid="meta-group-row">{`${groupField ? fieldLabel(groupField) + ': ' : ''}${String(r.__group)} (${String(r.__count)})`}</strong>
            ) : null
          ) : (
            render(v, r, idx)
          );
      });
    }
    if (access.show || access.edit || access.delete || access.status || extraActions.length > 0 || steps.length > 0) {
      cols.push({
        key: '__actions',
        title: t('meta.actions'),
        fixed: 'right',
        // bounded: past three actions a row shows Detail, its first step and More (row-actions.tsx);
        // on a tablet or phone Detail and More, so the pinned column leaves the table room
        width: actionsWidth(
          access,
          extraActions.map((a) => a.width),
          steps.length,
          narrow,
        ),
        onCell: (r: BaseRecord) => (isGroupRow(r) ? { colSpan: 0 } : {}),
        render: (_: unknown, record: BaseRecord) =>
          isGroupRow(record) ? null : (
            <RowActions
              resource={resource}
              record={record}
              access={access}
              t={t}
              onDelete={onDelete}
              deleting={mutation.isPending}
              onChanged={() => void refetch()}
              extra={extraActions}
              steps={steps}
              narrow={narrow}
            />
          ),
      });
    }
    return cols;
  }, [specs, visibility, sorters, fieldLabel, t, enums, access, resource, mutation.isPending, extraActions, steps, onDelete, refetch, narrow]);

  // tree (metadata `tree`) or warehouse groups (`listGroupBy`) over the page's rows
  const rows = tableProps.dataSource;
  const shaped = useMemo(() => {
    const list = (rows ?? []) as BaseRecord[];
    if (resource.tree) return buildTree(list, resource.tree) as BaseRecord[];
    if (resource.listGroupBy) return groupedTreeData(groupRows(list, resource.listGroupBy)) as BaseRecord[];
    return undefined;
  }, [rows, resource.tree, resource.listGroupBy]);
  const [expanded, setExpanded] = useState<Key[]>([]);
  useEffect(() => {
    // every level open when a page arrives; the user folds what they do not need
    if (shaped) setExpanded(parentKeys(shaped as never) as Key[]);
  }, [shaped]);

  const onReset = () => {
    searchFormProps.form?.resetFields();
    setFilters(searchToFilters(search, {}));
    setCurrentPage(1);
  };

  // every row reachable by paging, past the count cap too (lib/paging): the pager gets one page more
  // than is known, "go to" is not clamped, and a page past the end moves to the real last page
  const capped = Boolean(tableQuery.data?.totalCapped);
  const known = tableQuery.data?.total ?? 0;
  useEffect(() => {
    const data = tableQuery.data;
    if (!data || tableQuery.isFetching) return;
    const to = pageAfterAnswer(currentPage, { total: data.total, totalCapped: data.totalCapped as boolean | undefined, rows: data.data.length }, pageSize);
    if (to !== null) setCurrentPage(to);
  }, [tableQuery.data, tableQuery.isFetching, currentPage, pageSize, setCurrentPage]);
  const pagination = tableProps.pagination
    ? {
        ...tableProps.pagination,
        total: pagerTotal(known, capped, pageSize),
        pageSizeOptions: PAGE_SIZES,
        showSizeChanger: true,
        showTotal: (_total: number, range: [number, number]) => (
          <Space size={12} wrap>
            <span data-testid="meta-total">
              {t(capped ? 'meta.totalMore' : 'meta.total', {
                from: range[0],
                to: Math.min(range[1], range[0] + (tableQuery.data?.data.length ?? 0) - 1),
                total: known,
              })}
            </span>
            <PageJumper capped={capped} lastKnown={lastPageOf(known, pageSize)} disabled={tableQuery.isFetching} onGo={(page) => setCurrentPage(page)} />
          </Space>
        ),
      }
    : false;

  return (
    <List
      // the layout header carries the breadcrumb (SPEC §1)
      breadcrumb={false}
      resource={resource.name}
      title={t(resourceLabelKey(resource))}
      headerButtons={() => (
        <Space wrap>
          {access.import && <ImportButton resource={resource} onFinished={() => void tableQuery.refetch()} />}
          {access.export && <ExportButton resource={resource} filters={filters} sorters={sorters} />}
          {access.create && (
            <Button
              type="primary"
              icon={<PlusOutlined />}
              href={createPath(resource)}
              data-testid="meta-create"
              onClick={(e) => {
                e.preventDefault();
                void navigate(createPath(resource));
              }}
            >
              {t('meta.create')}
            </Button>
          )}
        </Space>
      )}
    >
      {search.length > 0 && (
        <Card size="small" style={{ marginBottom: 12 }} styles={{ body: { paddingBottom: 0 } }}>
          <SearchForm fields={search} formProps={searchFormProps} onReset={onReset} loading={tableQuery.isFetching} />
        </Card>
      )}
      <Card size="small">
        <Space style={{ width: '100%', justifyContent: 'flex-end', marginBottom: 8 }} size={4}>
          {/* plugins' tools for the list (`<resource>.list.toolbar`) */}
          <Zone
            name={zoneName(resource.name, 'list.toolbar')}
            components={toolbar}
            props={{ resource, refresh: () => void tableQuery.refetch() }}
            wrap={(c) => <Space wrap>{c}</Space>}
          />
          <ReloadButton onClick={() => void tableQuery.refetch()} loading={tableQuery.isFetching} />
          <DensitySwitch value={density} onChange={setDensity} />
          <ColumnChooser specs={specs} visibility={visibility} onChange={setColumn} onReset={resetColumns} />
        </Space>
        <div data-testid="meta-table">
          <Table
            {...tableProps}
            dataSource={shaped ?? tableProps.dataSource}
            expandable={shaped ? { expandedRowKeys: expanded, onExpandedRowsChange: (keys) => setExpanded([...keys]) } : undefined}
            rowKey="id"
            rowClassName={(r: BaseRecord) => (saved !== undefined && String(r.id) === String(saved) ? 'meta-row-saved' : '')}
            size={density}
            columns={columns}
            pagination={pagination}
            scroll={{ x: 'max-content' }}
          />
        </div>
      </Card>
    </List>
  );
};

export default MetaList;
