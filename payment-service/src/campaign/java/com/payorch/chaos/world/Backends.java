package com.payorch.chaos.world;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** {@code pg_terminate_backend} of the service's connections, for the nemesis's {@code terminate-backends}. */
final class Backends {

    private Backends() {
    }

    /**
     * Terminates up to {@code count} random client backends of database {@code postgres} (not {@code connection}'s
     * own, nor PostgreSQL's own processes such as a WAL sender); the process ids it ended.
     */
    static List<Integer> terminateRandom(Connection connection, int count, Random random) throws SQLException {
        List<Integer> ended = new ArrayList<>();
        try (var statement = connection.createStatement()) {
            List<Integer> candidates = new ArrayList<>();
            try (var rows = statement.executeQuery("select pid from pg_stat_activity where backend_type = 'client"
                    + " backend' and pid <> pg_backend_pid() and datname = 'postgres' order by pid")) {
                while (rows.next()) {
                    candidates.add(rows.getInt(1));
                }
            }
            for (int i = 0; i < count && !candidates.isEmpty(); i++) {
                int pid = candidates.remove(random.nextInt(candidates.size()));
                try (var rows = statement.executeQuery("select pg_terminate_backend(" + pid + ")")) {
                    if (rows.next() && rows.getBoolean(1)) {
                        ended.add(pid);
                    }
                }
            }
        }
        return ended;
    }
}
