/** Shown while a page chunk or the signed-in state loads. */
export function PageSpinner() {
  return (
    <div className="page-spinner" role="status">
      <div className="top-progress" />
      <div className="css-spinner" />
    </div>
  );
}
