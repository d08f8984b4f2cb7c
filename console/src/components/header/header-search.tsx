import { useMemo, useState } from 'react';
import { useNavigate } from '../../lib/navigate';
import { useTranslation } from 'react-i18next';
import { AutoComplete, Input } from 'antd';
import { SearchOutlined } from '@ant-design/icons';
import { flattenMenu } from '../../lib/menu';
import { useShell } from '../../providers/shell-context';

/** Jump to a page by (part of) its translated name. */
export function HeaderSearch() {
  const { t } = useTranslation();
  const { sideMenu } = useShell();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const pages = useMemo(() => flattenMenu(sideMenu).map((n) => ({ value: n.path, label: t(n.label) })), [sideMenu, t]);
  const q = text.trim().toLowerCase();
  const options = q ? pages.filter((p) => p.label.toLowerCase().includes(q) || p.value.includes(q)).slice(0, 20) : [];
  return (
    <AutoComplete
      className="header-search"
      options={options}
      value={text}
      onChange={setText}
      onSelect={(path: string) => {
        setText('');
        navigate(path);
      }}
      popupMatchSelectWidth={260}
    >
      <Input size="small" allowClear prefix={<SearchOutlined />} placeholder={t('header.search')} data-testid="header-search" />
    </AutoComplete>
  );
}
