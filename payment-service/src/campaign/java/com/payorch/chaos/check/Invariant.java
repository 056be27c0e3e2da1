package com.payorch.chaos.check;

import com.payorch.chaos.check.Checker.InvariantResult;

/** One property of a campaign's history and final state. Each implementation says in its javadoc how it is computed. */
interface Invariant {

    String name();

    InvariantResult check(CheckContext context);
}
