/* parser.h -- private to ref/mid/: short names kept by renaming macros */
#ifndef MID_PARSER_H
#define MID_PARSER_H
#define walk(...) mid_p_walk(__VA_ARGS__)
#define turn(...) mid_p_turn(__VA_ARGS__)
int walk(int n);
int turn(int n);
#endif
