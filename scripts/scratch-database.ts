/**
 * A Postgres database of a script's own, beside the one an admin URL names, and its drop: for a service a script
 * starts from the outside (the restart bench, the container test), as a self-hoster's starts on its own database.
 */
export async function scratchPostgresDatabase(adminUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const { default: pg } = await import('pg');
  const name = `${prefix}_${process.pid}_${Date.now().toString(36)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => admin(`drop database if exists ${name} with (force)`) };
}
