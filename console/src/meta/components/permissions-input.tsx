import { Button, Empty, Input, Space, Spin, Tree } from 'antd';
import { useMemo, useState, type FC, type Key } from 'react';
import { useQuery } from '@tanstack/react-query';
import { request } from '../../providers/http-client';
import { asArray } from '../lib/format';
import { catalogueNodes, checkedLeaves, parentIndex, toTreeData, withAncestors, type TreeNode } from '../lib/permission-tree';
import { useMetaT } from '../hooks/use-meta';

/** Keeps nodes whose title or code matches, with their ancestors. */
function filterTree(nodes: TreeNode[], q: string): TreeNode[] {
  const out: TreeNode[] = [];
  for (const n of nodes) {
    const kids = n.children ? filterTree(n.children, q) : [];
    if (n.title.toLowerCase().includes(q) || n.key.toLowerCase().includes(q) || kids.length) out.push({ ...n, ...(kids.length ? { children: kids } : {}) });
  }
  return out;
}

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
  const tree = useMemo(() => toTreeData(catalogue.data ?? []), [catalogue.data]);
  const parents = useMemo(() => parentIndex(tree), [tree]);
  const codes = useMemo(() => asArray(value).map(String), [value]);
  const checked = useMemo(() => checkedLeaves(tree, codes), [tree, codes]);
  const shown = useMemo(() => (query.trim() ? filterTree(tree, query.trim().toLowerCase()) : tree), [tree, query]);
  const allLeaves = useMemo(() => checkedLeaves(tree, [...parents.keys()]), [tree, parents]);

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
        defaultExpandedKeys={tree.map((n) => n.key)}
        onCheck={(keys) => {
          const list = (Array.isArray(keys) ? keys : keys.checked) as Key[];
          // a search hides nodes: keep checked codes that are out of view
          const visible = new Set(parentIndex(shown).keys());
          const hidden = checked.filter((k) => !visible.has(k));
          onChange?.(withAncestors([...hidden, ...list.map(String)], parents));
        }}
      />
    </div>
  );
};
