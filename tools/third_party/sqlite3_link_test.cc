// Links SQLite and checks that a table takes a row inside a transaction and
// that malformed SQL is refused.
#include <gtest/gtest.h>
#include <sqlite3.h>

namespace {

TEST(Sqlite3Link, StoresARowAndRejectsMalformedSql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(":memory:", &db), SQLITE_OK);
  EXPECT_EQ(sqlite3_exec(db,
                         "BEGIN; CREATE TABLE t (x INTEGER);"
                         "INSERT INTO t VALUES (42); COMMIT;",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_stmt* statement = nullptr;
  ASSERT_EQ(sqlite3_prepare_v2(db, "SELECT x FROM t", -1, &statement, nullptr),
            SQLITE_OK);
  ASSERT_EQ(sqlite3_step(statement), SQLITE_ROW);
  EXPECT_EQ(sqlite3_column_int(statement, 0), 42);
  sqlite3_finalize(statement);
  EXPECT_NE(sqlite3_exec(db, "SELEC x FROM t", nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
}

}  // namespace
