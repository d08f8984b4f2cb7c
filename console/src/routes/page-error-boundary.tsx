import { Component, lazy, Suspense, type ReactNode } from 'react';
import { errorLog } from '../lib/error-log';

const PageErrorFallback = lazy(() => import('./page-error-fallback'));

interface State {
  error?: Error;
}

/** A page that throws (or whose chunk fails to load) shows an error, not a blank shell. */
export class PageErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = {};
  static getDerivedStateFromError(error: Error): State {
    return { error };
  }
  override componentDidCatch(error: Error): void {
    errorLog.push('js', error.message, error.stack);
  }
  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Suspense fallback={null}>
        <PageErrorFallback error={this.state.error} />
      </Suspense>
    );
  }
}
