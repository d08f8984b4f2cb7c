import { Navigate, useLocation, useParams } from 'react-router';

/** /redirect/<route…> replaces itself with /<route…> (keeps the query). */
export default function RedirectPage() {
  const { '*': rest } = useParams();
  const { search } = useLocation();
  return <Navigate replace to={`/${rest ?? ''}${search}`} />;
}
