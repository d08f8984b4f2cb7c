import { ErrorPage } from './error-page';

export default function ForbiddenPage() {
  return <ErrorPage status="403" />;
}
