import { Button, Empty, Input, Space, Spin, Tree } from 'antd';
import { useEffect, useMemo, useState, type FC, type Key } from 'react';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../providers/http-client';
import { asArray } from '../lib/format';
import {
  catalogueNodes,
  checkedLeaves,
  expandedForSearch,
  filterTree,
  missingPages,
  parentIndex,
  toggleLeaves,
  toTreeData,
  withAncestors,
  withoutPages,
} from '../lib/permission-tree';
import { useOptionalShell } from '../../providers/shell-context';
import { publicPages } from '../../routes/public-pages';
import { useMetaT } from '../hooks/use-meta';

/** Permission codes picked from the current organisation's catalogue. */
export const PermissionsInput: FC<{ value?: string[] | null; onChange?: (v: string[]) => void; disabled?: boolean; id?: string }> = ({
  value,
  onChange,
  disabled,
  id,
}) => {
  const { t, lng } = useMetaT();
  const [query, setQuery] = useState('');
  const catalogue = useQuery({
    queryKey: ['meta', 'permission-catalogue', lng],
    queryFn: async () => catalogueNodes(await request('/permission/organization/all', {})),
    staleTime: 5 * 60_000,
  });
  // only pages this console serves: a menu page no plugin provides yet would grant a 404
  const shell = useOptionalShell();
  const missing = useMemo(
    () => (shell ? missingPages(shell.meta.menu.groups, [...shell.routes.map((r) => r.path), ...publicPages.map((p) => p.path)]) : new Set<string>()),
    [shell],
  );
  const tree = useMemo(() => toTreeData(withoutPages(catalogue.data ?? [], missing)), [catalogue.data, missing]);
  const parents = useMemo(() => parentIndex(tree), [tree]);
  const codes = useMemo(() => asArray(value).map(String), [value]);
  const checked = useMemo(() => checkedLeaves(tree, codes), [tree, codes]);
  const shown = useMemo(() => filterTree(tree, query), [tree, query]);
  const allLeaves = useMemo(() => checkedLeaves(tree, [...parents.keys()]), [tree, parents]);
  // a search opens the way to every match (API codes sit three levels down); clearing it goes back to the groups
  const [expanded, setExpanded] = useState<Key[]>([]);
  useEffect(() => setExpanded(query.trim() ? expandedForSearch(shown, query) : tree.map((n) => n.key)), [shown, query, tree]);

  if (catalogue.isLoading) return <Spin size="small" />;
  if (!tree.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <div id={id} data-testid="permissions-input" style={{ border: '1px solid rgba(5,5,5,.06)', borderRadius: 6, padding: 8 }}>
      <Space style={{ marginBottom: 8 }} wrap>
        <Input.Search allowClear size="small" placeholder={t('meta.search')} onChange={(e) => setQuery(e.target.value)} style={{ width: 220 }} />
        <Button size="small" disabled={disabled} onClick={() => onChange?.(withAncestors(allLeaves, parents))}>
          {t('meta.selectAll')}
        </Button>
        <Button size="small" disabled={disabled} onClick={() => onChange?.([])}>
          {t('meta.clear')}
        </Button>
        <span style={{ color: 'rgba(0,0,0,.45)' }}>{t('meta.permissionCount', { count: codes.length })}</span>
      </Space>
      <Tree
        checkable
        disabled={disabled}
        height={360}
        treeData={shown}
        checkedKeys={checked}
        expandedKeys={expanded}
        onExpand={(keys) => setExpanded(keys)}
        onCheck={(_keys, info) => {
          // judged on the whole tree: a group ticked during a search brings all its codes, shown or not
          // codes the tree does not show (a page this console lacks) are kept as they were
          const outside = codes.filter((c) => !parents.has(c));
          onChange?.([...outside, ...withAncestors(toggleLeaves(tree, checked, String(info.node.key), info.checked), parents)]);
        }}
      />
    </div>
  );
};
