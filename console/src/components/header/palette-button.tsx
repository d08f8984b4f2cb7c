import { useTranslation } from 'react-i18next';
import { useKBar } from '@refinedev/kbar';
import { Button, Tooltip } from 'antd';
import { ThunderboltOutlined } from '@ant-design/icons';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform);

/** Opens the command palette (also ctrl/cmd+K). */
export function PaletteButton() {
  const { t } = useTranslation();
  const { query } = useKBar();
  const hint = `${t('palette.open')} (${isMac ? '⌘' : 'Ctrl'}+K)`;
  return (
    <Tooltip title={hint}>
      <Button type="text" icon={<ThunderboltOutlined />} aria-label={hint} data-testid="palette-button" onClick={() => query.toggle()} />
    </Tooltip>
  );
}
