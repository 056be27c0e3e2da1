package com.payorch.support;

/**
 * The contract's rule for text fields: no U+0000 or other control character (Unicode category Cc: U+0000-U+001F,
 * U+007F-U+009F), except tab and newline in free text; no unpaired surrogate (it is not Unicode text, and would be
 * stored as '?').
 */
public final class Text {

    private Text() {
    }

    /** True when {@code value} may be stored: no control character (tab and newline only if free text). */
    public static boolean isClean(String value, boolean freeText) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1))) {
                    i++;
                    continue;
                }
                return false;
            }
            if (Character.isLowSurrogate(c)) {
                return false;
            }
            if (Character.getType(c) == Character.CONTROL && !(freeText && (c == '\t' || c == '\n'))) {
                return false;
            }
        }
        return true;
    }

    /** {@code value} safe to quote in a problem's detail or a log line: control characters as {@code \\uXXXX}. */
    public static String printable(String value) {
        StringBuilder out = new StringBuilder(value.length());
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean pairStart = Character.isHighSurrogate(c) && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1));
            if (pairStart) {
                out.append(c).append(value.charAt(++i));
            } else if (Character.getType(c) == Character.CONTROL || Character.isSurrogate(c)) {
                out.append(String.format("\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
