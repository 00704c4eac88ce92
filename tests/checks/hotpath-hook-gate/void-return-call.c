// mm/folio-compat.c (Linux 6.1): a void function whose body is
// `return folio_unlock(page_folio(page));` makes a call that does the work.
// Kept out of line and called in a loop, it is still no hook: no warning.
struct page { int locked; };
void folio_unlock(struct page *page);

__attribute__((noinline)) void unlock_page(struct page *page)
{
	return folio_unlock(page);
}

void unlock_all(struct page **pages, int n)
{
	for (int i = 0; i < n; i++)
		unlock_page(pages[i]);
}
