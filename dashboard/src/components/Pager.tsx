/** The numbered pager under a paged table: previous, "page N of M", next, each link made by `pageHref`. */
export function Pager({ page, total, pageSize, pageHref }: { page: number; total: number; pageSize: number; pageHref: (page: number) => string }) {
  return (
    <nav class="pager" aria-label="pages">
      {page > 1 ? <a href={pageHref(page - 1)}>← previous</a> : <span />}
      <span>
        page {page} of {Math.max(1, Math.ceil(total / pageSize))}
      </span>
      {page * pageSize < total ? <a href={pageHref(page + 1)}>next →</a> : <span />}
    </nav>
  );
}
