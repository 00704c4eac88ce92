/* Installs a fault-sim callback through SQLite's own API,
 * sqlite3_test_control(SQLITE_TESTCTRL_FAULT_INSTALL), runs a workload that
 * reaches sqlite3FaultSim() from the pager, the b-tree, the sorter and the
 * transfer optimisation, and prints how often the callback fired, by fault
 * code; then makes code 400 (the pager's sync) fail and prints the error.
 * scripts/real-sqlite-hooks.sh builds it against the original and the fixed
 * SQLite: the output must be the same. */
#include <stdio.h>
#include <string.h>
#include "sqlite3.h"

static int fired[1000];
static int fail_code = -1;

static int fault_cb(int code)
{
	if (code >= 0 && code < 1000)
		fired[code]++;
	return code == fail_code ? SQLITE_IOERR : SQLITE_OK;
}

static int exec(sqlite3 *db, const char *sql)
{
	char *err = 0;
	int rc = sqlite3_exec(db, sql, 0, 0, &err);
	if (rc != SQLITE_OK)
		printf("rc %d: %s\n", rc, err ? err : "");
	sqlite3_free(err);
	return rc;
}

int main(void)
{
	sqlite3 *db;
	int i, total = 0;
	const char *path = "faultsim.db";

	remove(path);
	sqlite3_test_control(SQLITE_TESTCTRL_FAULT_INSTALL, fault_cb);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return 2;
	exec(db, "PRAGMA cache_size=10;"
		 "CREATE TABLE t(a INTEGER PRIMARY KEY, b TEXT, c BLOB);"
		 "CREATE TABLE u(a INTEGER PRIMARY KEY, b TEXT, c BLOB);"
		 "CREATE INDEX tb ON t(b); CREATE INDEX ub ON u(b);");
	exec(db, "BEGIN; WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM n WHERE i<20000)"
		 " INSERT INTO t SELECT i, printf('%08d', (i*7919)%20000), CAST(printf('%050d', (i*31)%20000) AS BLOB) FROM n; COMMIT;");
	exec(db, "INSERT INTO u SELECT * FROM t;");
	exec(db, "CREATE TABLE s AS SELECT b, count(*) AS n FROM t GROUP BY b ORDER BY b DESC;");
	exec(db, "SELECT count(*) FROM t WHERE b IN (SELECT b FROM u ORDER BY c LIMIT 500);");
	/* A sort larger than the sorter's memory: several PMAs, merged by the
	   merge engines whose allocation calls sqlite3FaultSim(100). */
	exec(db, "CREATE TABLE s2 AS SELECT a, b, c, zeroblob(200) AS d FROM t ORDER BY c, b;");
	for (i = 0; i < 1000; i++)
		if (fired[i]) {
			printf("fired %d times for code %d\n", fired[i], i);
			total += fired[i];
		}
	printf("fired %d in all\n", total);
	fail_code = 400;
	exec(db, "INSERT INTO t(b) VALUES('x');");
	fail_code = -1;
	exec(db, "SELECT 1;");
	sqlite3_close(db);
	remove(path);
	return 0;
}
