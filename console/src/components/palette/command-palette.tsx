import { useTranslation } from 'react-i18next';
import {
  KBarAnimator,
  KBarPortal,
  KBarPositioner,
  KBarResults,
  KBarSearch,
  useMatches,
  useRegisterActions,
} from '@refinedev/kbar';
import { usePaletteActions } from './use-palette-actions';
import { useSerialSearch } from './use-serial-search';

function Results() {
  const { results } = useMatches();
  const { t } = useTranslation();
  if (!results.length) return <div className="palette-empty">{t('palette.empty')}</div>;
  return (
    <KBarResults
      items={results}
      onRender={({ item, active }) =>
        typeof item === 'string' ? (
          <div className="palette-section">{item}</div>
        ) : (
          <div className={active ? 'palette-item active' : 'palette-item'} data-testid={`palette-item:${item.id}`}>
            <span>{item.name}</span>
            {item.subtitle && <span className="palette-subtitle">{item.subtitle}</span>}
          </div>
        )
      }
    />
  );
}

/** ctrl/cmd+K: open pages, create records, find a device or carrier by serial number. */
export function CommandPalette() {
  const { t } = useTranslation();
  const actions = usePaletteActions();
  const found = useSerialSearch();
  useRegisterActions(actions, [actions]);
  useRegisterActions(found, [found]);
  return (
    <KBarPortal>
      <KBarPositioner className="palette-positioner">
        <KBarAnimator className="palette">
          <div data-testid="palette">
            <KBarSearch className="palette-input" defaultPlaceholder={t('palette.placeholder')} data-testid="palette-input" />
            <Results />
          </div>
        </KBarAnimator>
      </KBarPositioner>
    </KBarPortal>
  );
}
