import { useSyncExternalStore } from 'react';
import { appState, type AppState } from './app-state';

export function useAppState(): AppState {
  return useSyncExternalStore(appState.subscribe, appState.get);
}
