/**
 * The life-cycle diagram of the operations console: an SVG drawn from the state machine module's own definition
 * ({@link com.payorch.statemachine.PaymentLifecycle#transitions()}), with the current state highlighted and the path
 * a payment took drawn on it. Depends only on the public API of {@code com.payorch.statemachine}
 * (DiagramDependenciesTest).
 */
package com.payorch.console.diagram;
