import { Button, Input, Space } from 'antd';
import { useState, type FC } from 'react';
import { useMetaT } from '../hooks/use-meta';
import { MAX_PAGE, parsePage } from '../lib/paging';

/**
 * "Go to page" without the pager's clamp (antd clamps to the pages the total allows, which past
 * the count cap is not the last page), and "Last page", which past the cap asks for the farthest
 * page so the server counts every row and the list moves to the real end.
 */
export const PageJumper: FC<{ onGo: (page: number) => void; capped: boolean; lastKnown: number; disabled?: boolean }> = ({
  onGo,
  capped,
  lastKnown,
  disabled,
}) => {
  const { t } = useMetaT();
  const [text, setText] = useState('');
  const go = () => {
    const page = parsePage(text);
    if (page === null) return;
    setText('');
    onGo(page);
  };
  return (
    <Space size={4} data-testid="page-jumper">
      <Input
        size="small"
        style={{ width: 72 }}
        inputMode="numeric"
        placeholder={t('meta.goToPage')}
        aria-label={t('meta.goToPage')}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onPressEnter={go}
        data-testid="page-jumper-input"
      />
      <Button size="small" disabled={disabled || parsePage(text) === null} onClick={go} data-testid="page-jumper-go">
        {t('meta.go')}
      </Button>
      <Button size="small" disabled={disabled} onClick={() => onGo(capped ? MAX_PAGE : lastKnown)} data-testid="page-jumper-last">
        {t('meta.lastPage')}
      </Button>
    </Space>
  );
};
