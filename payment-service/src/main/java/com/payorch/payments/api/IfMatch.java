package com.payorch.payments.api;

import java.util.List;

/**
 * `If-Match` as RFC 9110 (13.1.1) has it: a list of entity-tags in one or several header lines, or `*`, compared
 * strongly: a weak tag (`W/"3"`) never matches. A malformed value matches nothing, so the precondition fails
 * rather than a change going through on a header the client did not mean.
 */
final class IfMatch {

    private IfMatch() {
    }

    /**
     * @param headerValues every `If-Match` line of the request (none: no precondition, use {@link #matches} only
     *                     when there is one)
     * @param currentEtag  the resource's strong entity-tag, quotes included
     */
    static boolean matches(List<String> headerValues, String currentEtag) {
        boolean any = false;
        for (String header : headerValues) {
            Boolean result = matchesOne(header, currentEtag);
            if (result == null) {
                return false;
            }
            any |= result;
        }
        return any;
    }

    /** True or false for a well-formed line; null for a malformed one. */
    private static Boolean matchesOne(String header, String currentEtag) {
        boolean matched = false;
        int i = 0;
        int n = header.length();
        boolean expectElement = true;
        while (i < n) {
            char c = header.charAt(i);
            if (c == ' ' || c == '\t') {
                i++;
            } else if (c == ',') {
                expectElement = true;
                i++;
            } else if (!expectElement) {
                return null; // two elements without a comma between them
            } else if (c == '*') {
                matched = true;
                expectElement = false;
                i++;
            } else {
                boolean weak = header.startsWith("W/", i);
                int open = weak ? i + 2 : i;
                if (open >= n || header.charAt(open) != '"') {
                    return null;
                }
                int close = header.indexOf('"', open + 1);
                if (close < 0) {
                    return null;
                }
                String tag = header.substring(open, close + 1);
                if (!weak && tag.equals(currentEtag)) {
                    matched = true;
                }
                expectElement = false;
                i = close + 1;
            }
        }
        return matched;
    }
}
