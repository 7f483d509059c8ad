#!/bin/sh
dan-cpe "$1" > /dev/null 2>&1
test $? -gt 128
