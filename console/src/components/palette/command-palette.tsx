import { useTranslation } from 'react-i18next';
import { KBarAnimator, KBarPortal, KBarPositioner, KBarResults, KBarSearch, useMatches, useRegisterActions } from '@refinedev/kbar';
import { usePaletteActions } from './use-palette-actions';
import { useSerialSearch } from './use-serial-search';

function Results({ searching, unsearchable }: { searching: boolean; unsearchable: string[] }) {
  const { results } = useMatches();
  const { t } = useTranslation();
  if (!results.length) {
    return (
      <div className="palette-empty" data-testid="palette-empty">
        {t(searching ? 'palette.searching' : 'palette.empty')}
        {!searching && unsearchable.length > 0 && (
          <div className="palette-subtitle">{t('palette.notSearched', { names: unsearchable.map((n) => t(n)).join(', ') })}</div>
        )}
      </div>
    );
  }
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
  const { found, searching, unsearchable } = useSerialSearch();
  useRegisterActions(actions, [actions]);
  useRegisterActions(found, [found]);
  return (
    <KBarPortal>
      <KBarPositioner className="palette-positioner">
        <KBarAnimator className="palette">
          <div data-testid="palette">
            <KBarSearch className="palette-input" defaultPlaceholder={t('palette.placeholder')} data-testid="palette-input" />
            <Results searching={searching} unsearchable={unsearchable} />
          </div>
        </KBarAnimator>
      </KBarPositioner>
    </KBarPortal>
  );
}
