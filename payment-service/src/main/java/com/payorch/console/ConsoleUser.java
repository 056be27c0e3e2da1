package com.payorch.console;

import java.util.Collection;
import java.util.List;
import org.springframework.security.core.GrantedAuthority;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.userdetails.UserDetails;

/** A console user as Spring Security holds it in the session: name, password hash and merchant scope. */
public record ConsoleUser(String name, String passwordHash, MerchantScope scope) implements UserDetails {

    private static final List<GrantedAuthority> OPERATOR = List.of(new SimpleGrantedAuthority("ROLE_CONSOLE"));

    @Override
    public Collection<? extends GrantedAuthority> getAuthorities() {
        return OPERATOR;
    }

    @Override
    public String getPassword() {
        return passwordHash;
    }

    @Override
    public String getUsername() {
        return name;
    }

    @Override
    public String toString() {
        return "ConsoleUser[" + name + ", " + scope.describe() + "]"; // never the hash
    }
}
