#!/bin/sh
grep -q spill_out "$1"
