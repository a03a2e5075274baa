/* stray.c -- a file of no module in the order */
int
stray(void)
{
    return 0;
}
