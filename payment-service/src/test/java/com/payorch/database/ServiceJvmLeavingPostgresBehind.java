package com.payorch.database;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * Run in a child JVM by {@link OrphanedPostgresTakeoverIT}: starts the embedded PostgreSQL as the service does,
 * commits a row, prints {@link #READY} and waits to be killed with SIGKILL, leaving PostgreSQL running.
 */
public final class ServiceJvmLeavingPostgresBehind {

    static final String READY = "SERVICE-JVM-READY";
    static final String NOTE = "committed before kill -9";

    private ServiceJvmLeavingPostgresBehind() {
    }

    public static void main(String[] args) throws Exception {
        EmbeddedPostgres postgres = EmbeddedPostgresLauncher.start(Path.of(args[0]));
        String jdbcUrl = new EmbeddedPostgresConnectionDetails(postgres.getPort()).getJdbcUrl();
        try (Connection connection = DriverManager.getConnection(jdbcUrl, EmbeddedPostgresLauncher.USER, "");
             Statement statement = connection.createStatement()) {
            statement.execute("create table acknowledged (id bigint primary key, note text not null)");
            statement.execute("insert into acknowledged (id, note) values (1, '" + NOTE + "')");
        }
        System.out.println(READY);
        System.out.flush();
        Thread.currentThread().join();
    }
}
