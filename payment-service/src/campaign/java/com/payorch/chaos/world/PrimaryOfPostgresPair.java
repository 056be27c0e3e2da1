package com.payorch.chaos.world;

import com.payorch.testsupport.PostgresPair;
import java.sql.Connection;
import java.sql.SQLException;

/** A {@link PostgresPair} as the nemesis and the checker see it: every call is about the server that is primary now. */
final class PrimaryOfPostgresPair implements DatabaseServer {

    private final PostgresPair pair;

    PrimaryOfPostgresPair(PostgresPair pair) {
        this.pair = pair;
    }

    @Override
    public int port() {
        return pair.primary().port();
    }

    @Override
    public boolean isRunning() {
        return pair.isPrimaryRunning();
    }

    @Override
    public String jdbcUrl() {
        return pair.primary().jdbcUrl();
    }

    @Override
    public Connection connect() throws SQLException {
        return pair.connect();
    }

    @Override
    public void startServer() {
        pair.startPrimary();
    }

    @Override
    public void immediateShutdown() {
        pair.stopPrimaryImmediately();
    }

    @Override
    public void close() {
        pair.close();
    }

    @Override
    public String toString() {
        return "the primary of " + pair.ports();
    }
}
