#ifndef FAULT_H
#define FAULT_H

/* Fault simulation, shaped as SQLite's sqlite3FaultSim(): a callback
 * installed with fault_install() decides whether step N fails; with none
 * installed, no step fails. */
int fault_sim(int step);
void fault_install(int (*cb)(int));

#endif
